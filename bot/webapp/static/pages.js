// A player's, a group's or a tournament's page (loaded by app.js when the link names one: u<id>,
// g<chat> or t<tournament>).
// It asks the bot once (api/page) and draws each section the answer lists, by its kind; every
// chart is SVG drawn here, every word is the bot's, in the user's language, numbers in its
// digits. Charts keep time left to right in every language; the page around them follows the
// language's direction.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const DAY_MS = 86400000;

function pageAsked() {
  return query.get("page") || roundTicket();
}
function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}
function chart(width, height, label) {
  // a chart reads left to right in every language (pages.css sets its direction)
  return svg("svg", {viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img",
                     "aria-label": label});
}
function dayIndex(day) { return Math.round(Date.parse(day + "T00:00:00Z") / DAY_MS); }
function dayOf(index) { return new Date(index * DAY_MS); }
function dates(options) {
  // dates in the page's language, on the Gregorian calendar (Persian's default is another),
  // in Latin digits that local() writes as the page's other numbers
  try {
    return new Intl.DateTimeFormat(page.language || "en", {timeZone: "UTC", calendar: "gregory",
                                                           numberingSystem: "latn", ...options});
  } catch (e) {
    return new Intl.DateTimeFormat("en", {timeZone: "UTC", ...options});
  }
}
function dayText(index, year) {
  return local(dates(year ? {day: "numeric", month: "short", year: "numeric"}
                          : {day: "numeric", month: "short"}).format(dayOf(index)));
}
let ruler = null;
function textWidth(text) {
  // how wide a label is in the charts' font: measured once drawn (an SVG of its own, out of
  // sight), else guessed
  try {
    if (!ruler) {
      const box = svg("svg", {class: "chart", style: "position:absolute;visibility:hidden;width:0;height:0"});
      ruler = svg("text", {class: "axis"});
      box.appendChild(ruler);
      document.body.appendChild(box);
    }
    ruler.textContent = text;
    const width = ruler.getComputedTextLength();
    if (width > 0) return width + 2;
  } catch (e) { /* no layout: guess */ }
  return text.length * 5.6 + 2;
}
function timeAxis(box, first, last, x, top, left, right) {
  // the labels under a chart whose time runs from day `first` to day `last` (today): both
  // ends' dates when it spans two months or less, else each month where it begins, with its
  // year under it where the year changes (and under the first). Months whose labels would
  // touch are left out, a January (a year's start) last of all; no label runs past the edges.
  const yearOf = (d) => dayOf(d).getUTCFullYear();
  let ticks = [];
  if (last - first <= 62) {
    const years = yearOf(first) !== yearOf(last);
    ticks.push({d: first, text: dayText(first, years), anchor: "start", at: x(first)});
    ticks.push({d: last, text: dayText(last, years), anchor: "end", at: x(last)});
  } else {
    const month = dates({month: "short"});
    const candidates = [];
    for (let d = first + 1; d <= last; d++) {
      if (dayOf(d).getUTCDate() !== 1) continue;
      const text = local(month.format(dayOf(d)));
      const half = textWidth(text) / 2;
      candidates.push({d, text, anchor: "middle", half, first: !candidates.length,
                       at: Math.min(Math.max(x(d), left + half), right - half)});
    }
    const kept = [];
    const fits = (c) => kept.every((k) => Math.abs(k.at - c.at) >= k.half + c.half + 3);
    // the first month and each January first, then the others from the left
    const order = [...candidates.filter((c) => c.first || dayOf(c.d).getUTCMonth() === 0),
                   ...candidates.filter((c) => !c.first && dayOf(c.d).getUTCMonth() !== 0)];
    for (const c of order) if (fits(c)) kept.push(c);
    ticks = kept.sort((a, b) => a.d - b.d);
    let shownYear = null;
    for (const tick of ticks) {
      const year = yearOf(tick.d);
      tick.year = year !== shownYear ? local(String(year)) : null;
      shownYear = year;
    }
  }
  for (const tick of ticks) {
    if (tick.anchor === "middle") {
      box.appendChild(svg("line", {x1: x(tick.d), x2: x(tick.d), y1: top - 3, y2: top, class: "grid"}));
    }
    box.appendChild(svg("text", {x: tick.at, y: top + 10, class: "axis", "text-anchor": tick.anchor},
                        tick.text));
    if (tick.year) {
      box.appendChild(svg("text", {x: tick.at, y: top + 21, class: "axis year", "text-anchor": "middle"},
                          tick.year));
    }
  }
}
function pageWord(key) { return (page.words && page.words[key]) || "⚠"; }

const page = {words: {}};

// --- the sections, by kind -------------------------------------------------------------------
function ratingChart(section) {
  // one line per game, from its first rated day to today; a game with a single day is a point
  // with its value written by it; the legend names each game, then its rating, apart
  const lines = section.lines.filter((line) => line.points.length);
  if (!lines.length) return null;
  const W = 340, H = 186, L = 34, R = 12, T = 14, B = 36;
  const days = lines.flatMap((line) => line.points.map(([d]) => dayIndex(d)));
  const values = lines.flatMap((line) => line.points.map(([, v]) => v));
  const last = Math.max(section.today ? dayIndex(section.today) : 0, ...days);
  const first = Math.min(last - 6, ...days);  // a week at least: one day is not a span
  let low = Math.min(...values), high = Math.max(...values);
  if (high - low < 20) { low -= 10; high += 10; }
  const x = (d) => L + (W - L - R) * (d - first) / (last - first);
  const y = (v) => T + (H - T - B) * (high - v) / (high - low);
  const box = chart(W, H, section.title);
  for (const v of [low, high]) {
    box.appendChild(svg("line", {x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid"}));
    box.appendChild(svg("text", {x: L - 4, y: y(v) + 4, class: "axis", "text-anchor": "end"}, local(Math.round(v))));
  }
  const season = dayIndex(section.season_start);
  if (season > first && season <= last) {
    box.appendChild(svg("line", {x1: x(season), x2: x(season), y1: T - 4, y2: H - B, class: "season"}));
    // the season's word beside its line, on the side with room for it
    const room = x(season) + 3 + textWidth(section.season_word) <= W - R;
    box.appendChild(svg("text", {x: room ? x(season) + 3 : x(season) - 3, y: T + 6, class: "axis",
                                 "text-anchor": room ? "start" : "end"}, section.season_word));
  }
  timeAxis(box, first, last, x, H - B + 4, L, W - R);
  lines.forEach((line, i) => {
    const at = line.points.map(([d, v]) => [x(dayIndex(d)), y(v)]);
    if (at.length > 1) {
      box.appendChild(svg("polyline", {points: at.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" "),
                                       class: `line c${i % 3}`}));
    }
    const [px, py] = at[at.length - 1];
    box.appendChild(svg("circle", {cx: px.toFixed(1), cy: py.toFixed(1), r: 3.5, class: `point c${i % 3}`}));
    if (at.length === 1) {
      box.appendChild(svg("text", {x: px - 6, y: py - 7, class: "value", "text-anchor": "end"},
                          local(line.points[0][1])));
    }
  });
  const wrap = el("div");
  wrap.appendChild(box);
  const legend = el("p", {class: "legend"});
  lines.forEach((line, i) => {
    const entry = el("span", {class: "entry"});
    entry.appendChild(el("span", {class: `key c${i % 3}`}));
    // a name, a colon, the value: never two numbers read as one (a full-width colon in Chinese)
    entry.appendChild(el("span", {class: "name"}, line.name + (/^zh/.test(page.language) ? "：" : ":")));
    entry.appendChild(el("b", {class: "value"}, local(line.points[line.points.length - 1][1])));
    legend.appendChild(entry);
  });
  wrap.appendChild(legend);
  return wrap;
}
function gamesChart(section) {
  if (!section.games.length) return null;
  const W = 340, row = 34, H = row * section.games.length + 6, L = 96;
  const most = Math.max(...section.games.map((g) => g.rounds), 1);
  const box = chart(W, H, section.title);
  section.games.forEach((game, i) => {
    const top = 4 + i * row, width = (W - L - 44) * game.rounds / most;
    box.appendChild(svg("text", {x: 0, y: top + 18, class: "label"}, game.name));
    box.appendChild(svg("rect", {x: L, y: top + 4, width: Math.max(width, 1), height: 20, rx: 4, class: "bar soft"}));
    box.appendChild(svg("rect", {x: L, y: top + 4, width: Math.max((W - L - 44) * game.wins / most, game.wins ? 1 : 0),
                                 height: 20, rx: 4, class: "bar"}));
    box.appendChild(svg("text", {x: L + width + 4, y: top + 18, class: "axis"},
                        `${local(game.wins)}/${local(game.rounds)}`));
  });
  const wrap = el("div");
  wrap.appendChild(box);
  const legend = el("p", {class: "legend"});
  legend.appendChild(el("span", {class: "key soft"})); legend.appendChild(el("span", {}, section.legend[0]));
  legend.appendChild(el("span", {class: "key strong"})); legend.appendChild(el("span", {}, section.legend[1]));
  wrap.appendChild(legend);
  return wrap;
}
function levelsTable(section) {
  if (!section.rows.length) return null;
  const table = el("table", {class: "levels"});
  const head = el("tr");
  head.appendChild(el("th"));
  for (const word of section.heads) head.appendChild(el("th", {}, word));
  table.appendChild(head);
  for (const row of section.rows) {
    const line = el("tr");
    line.appendChild(el("td", {dir: "auto"}, row.name));
    line.appendChild(el("td", {class: "num"}, local(row.rounds)));
    const share = el("td", {class: "num"});
    const meter = el("span", {class: "meter"});
    meter.appendChild(el("span", {style: `width:${row.share}%`}));
    share.appendChild(meter);
    // the bot writes the share as the language writes a percentage (٪ in Persian)
    share.appendChild(el("span", {}, row.share_text || local(`${row.share}%`)));
    line.appendChild(share);
    line.appendChild(el("td", {class: "num"}, row.median));
    table.appendChild(line);
  }
  return table;
}
function themesTable(section) {
  // a row a theme, the weakest first: a bar from the middle, left where the player stands below
  // what their rating predicts on hands of that theme, right where above; the share solved, the
  // share the ratings expected, and the latest hand that showed it
  if (!section.rows.length) return null;
  const table = el("table", {class: "levels themes"});
  const head = el("tr");
  head.appendChild(el("th"));
  head.appendChild(el("th"));
  for (const word of section.heads) head.appendChild(el("th", {}, word));
  table.appendChild(head);
  for (const row of section.rows) {
    const line = el("tr", {class: row.kind});
    line.appendChild(el("td", {dir: "auto"}, row.name));
    const bar = el("td", {class: "standing"});
    const axis = el("span", {class: "axis"});  // left to right in every language (pages.css)
    const reach = Math.min(Math.abs(row.standing), 2) / 2 * 50;
    axis.appendChild(el("span", {class: row.standing < 0 ? "below" : "above",
                                 style: `width:${reach}%`}));
    bar.appendChild(axis);
    line.appendChild(bar);
    line.appendChild(el("td", {class: "num"}, local(row.rounds)));
    const share = el("td", {class: "num"});
    const meter = el("span", {class: "meter"});
    meter.appendChild(el("span", {style: `width:${row.share}%`}));
    share.appendChild(meter);
    share.appendChild(el("span", {}, row.share_text));
    line.appendChild(share);
    line.appendChild(el("td", {class: "num"}, row.expected));
    line.appendChild(el("td", {class: "num hand"}, row.hand));
    table.appendChild(line);
  }
  return table;
}
function calendarChart(section) {
  const counts = new Map(section.days);
  const first = dayIndex(section.from), last = dayIndex(section.to);
  const start = first - ((first + 4) % 7);  // back to a Monday (1970-01-01 was a Thursday)
  const weeks = Math.ceil((last - start + 1) / 7), cell = 6, gap = 1;
  const W = weeks * (cell + gap), H = 7 * (cell + gap);
  const box = chart(W, H, section.title);
  for (let d = first; d <= last; d++) {
    const day = new Date(d * DAY_MS).toISOString().slice(0, 10);
    const n = counts.get(day) || 0;
    const level = n === 0 ? 0 : n === 1 ? 1 : n <= 3 ? 2 : n <= 7 ? 3 : 4;
    const square = svg("rect", {x: Math.floor((d - start) / 7) * (cell + gap), y: ((d - start) % 7) * (cell + gap),
                                width: cell, height: cell, rx: 1, class: `day l${level}`});
    square.appendChild(svg("title", {}, `${local(day)}: ${local(n)}`));
    box.appendChild(square);
  }
  const wrap = el("div");
  wrap.appendChild(box);
  for (const line of section.streaks) wrap.appendChild(el("p", {class: "streak"}, line));
  return wrap;
}
function badges(section) {
  // every achievement (a player's page: the earned ones bright, the rest to chase) or the
  // latest earned in the group, by whom; the rule under each name, how they count below
  const wrap = el("div");
  const list = el("ul", {class: "badges"});
  for (const item of section.items) {
    const entry = el("li", {class: item.earned ? "badge earned" : "badge"});
    entry.appendChild(el("span", {class: "medal", "aria-hidden": "true"}, item.earned ? "🏅" : "○"));
    const text = el("div");
    text.appendChild(el("strong", {}, item.name));
    if (item.who) text.appendChild(el("span", {class: "who"}, ` · ${item.who}`));
    text.appendChild(el("small", {}, item.rule));
    entry.appendChild(text);
    if (item.when) entry.appendChild(el("bdi", {class: "when", dir: "ltr"}, item.when));
    list.appendChild(entry);
  }
  if (section.items.length) wrap.appendChild(list);
  wrap.appendChild(el("p", {class: "empty"}, section.note));
  return wrap;
}
function cardButton(label, asked, file, shown) {
  // the bot draws the card (a PNG) of what `asked` names, shown here to be saved or forwarded
  const button = el("button", {type: "button"}, label);
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const response = await fetch("api/card", {method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify({init_data: initData(), page: pageAsked(), language: askedLanguage(), ...asked})});
      const data = await response.json();
      shown.innerHTML = "";
      if (response.status === 200) {
        const source = `data:image/png;base64,${data.png}`;
        const link = el("a", {href: source, download: file});
        link.appendChild(el("img", {src: source, alt: label, class: "card-image"}));
        shown.appendChild(link);
      } else {
        shown.appendChild(el("p", {class: "empty"}, data.said || pageWord("failed")));
      }
    } catch (e) {
      shown.innerHTML = "";
      shown.appendChild(el("p", {class: "empty"}, pageWord("failed")));
    }
    button.disabled = false;
  });
  return button;
}
function shareCards(section) {
  // a button a game (the season's card: no hand on it) and one for the latest daily result
  // (its tiles face down while its day lasts); only the player's own page offers them
  const wrap = el("div", {class: "share"});
  const shown = el("div", {class: "shown"});
  for (const game of section.games) {
    const button = cardButton(game.name, {card: "season", game: game.game},
                              `twenty-four-${game.game}.png`, shown);
    button.dataset.game = game.game;
    wrap.appendChild(button);
  }
  if (section.daily) {
    const daily = section.daily;
    const button = cardButton(daily.name, {card: "daily", day: daily.day, game: daily.game},
                              `twenty-four-daily-${daily.game}-${daily.day}.png`, shown);
    button.dataset.card = "daily";
    wrap.appendChild(button);
  }
  wrap.appendChild(shown);
  return wrap;
}
function itemsList(section) {
  if (!section.items.length) return null;
  const list = el("dl", {class: "items"});
  for (const item of section.items) {
    const entry = el("div", {class: "item"});
    // a hand (its numbers, an arrow, the target) reads left to right in every language; a time
    // or a count in its own direction
    const label = el("dt");
    label.appendChild(el("bdi", {dir: item.hand === "label" ? "ltr" : "auto"}, item.label));
    entry.appendChild(label);
    const value = el("dd");
    value.appendChild(el("bdi", {dir: item.hand === "value" ? "ltr" : "auto"}, item.value));
    if (item.detail) value.appendChild(el("small", {}, item.detail));
    entry.appendChild(value);
    list.appendChild(entry);
  }
  return list;
}
function sparkline(points, first, last) {
  // a player's rating this season, from its start to today; one day rated is a point
  const W = 90, H = 26;
  const box = chart(W, H, "");
  if (points.length < 1) return box;
  const values = points.map(([, v]) => v);
  let low = Math.min(...values), high = Math.max(...values);
  if (high - low < 10) { low -= 5; high += 5; }
  const x = (d) => 3 + (W - 6) * (dayIndex(d) - first) / Math.max(1, last - first);
  const y = (v) => 3 + (H - 6) * (high - v) / (high - low);
  const drawn = points.map(([d, v]) => `${x(d).toFixed(1)},${y(v).toFixed(1)}`);
  if (drawn.length > 1) box.appendChild(svg("polyline", {points: drawn.join(" "), class: "line c0"}));
  const [d, v] = points[points.length - 1];
  box.appendChild(svg("circle", {cx: x(d).toFixed(1), cy: y(v).toFixed(1), r: 2.5, class: "point c0"}));
  return box;
}
function boardTable(section) {
  const table = el("table", {class: "board"});
  const first = dayIndex(section.season_start);
  const last = Math.max(first + 1, section.today ? dayIndex(section.today) : 0,
                        ...section.rows.flatMap((row) => row.trend.map(([d]) => dayIndex(d))));
  for (const row of section.rows) {
    const line = el("tr");
    // a provisional rating has no rank: it is shown apart from the settled (docs/ratings.md)
    line.appendChild(el("td", {class: "num rank"}, row.rank === null ? "–" : local(row.rank)));
    line.appendChild(el("td", {class: "name"}, row.name));
    const trend = el("td", {class: "trend"});
    trend.appendChild(sparkline(row.trend, first, last));
    line.appendChild(trend);
    line.appendChild(el("td", {class: "num"}, local(row.rating)));
    table.appendChild(line);
  }
  return table;
}
function standingsTable(section) {
  // a tournament's players or groups: a place, a name (and what it plays for), the score
  if (!section.rows.length) return null;
  const table = el("table", {class: "board standings"});
  for (const row of section.rows) {
    const line = el("tr");
    line.appendChild(el("td", {class: "num rank"}, local(row.place)));
    const name = el("td", {class: "name"});
    name.appendChild(el("bdi", {}, row.name));
    if (row.detail) name.appendChild(el("small", {dir: "auto"}, row.detail));
    line.appendChild(name);
    line.appendChild(el("td", {class: "num"}, row.value));
    table.appendChild(line);
  }
  return table;
}
function weeksChart(section) {
  // a bar a week, the last one this week; months labelled where they begin, the year under
  // a month where it changes
  const most = Math.max(...section.weeks, 1);
  if (most <= 1 && !section.weeks.some(Boolean)) return null;
  const W = 340, H = 124, B = 30, step = W / section.weeks.length;
  const first = dayIndex(section.from), last = section.to ? dayIndex(section.to) : first + 7 * section.weeks.length - 1;
  const box = chart(W, H, section.title);
  section.weeks.forEach((n, i) => {
    const height = (H - B - 12) * n / most;
    const bar = svg("rect", {x: i * step + 0.5, y: H - B - height, width: Math.max(step - 1.5, 1), height, class: "bar"});
    bar.appendChild(svg("title", {}, local(n)));
    box.appendChild(bar);
  });
  timeAxis(box, first, last, (d) => step * (d - first) / 7, H - B + 4, 0, W);
  box.appendChild(svg("text", {x: W, y: 10, class: "axis", "text-anchor": "end"}, local(most)));
  return box;
}
const DRAW = {rating: ratingChart, games: gamesChart, levels: levelsTable, themes: themesTable,
              calendar: calendarChart,
              records: itemsList, hands: itemsList, board: boardTable, weeks: weeksChart,
              achievements: badges, share: shareCards,
              about: itemsList, players: standingsTable, groups: standingsTable, rounds: itemsList};

// --- the page --------------------------------------------------------------------------------
function drawPage(data) {
  Object.assign(page, data);
  state.digits = data.digits || "0123456789";
  state.rtl = data.direction === "rtl";
  document.documentElement.lang = data.language;
  document.documentElement.dir = data.direction || "ltr";
  document.title = data.title;
  const main = $("page");
  main.innerHTML = "";
  main.appendChild(el("h1", {}, data.title));
  for (const section of data.sections) {
    const draw = DRAW[section.kind];
    if (!draw) continue;  // a kind this page does not know yet
    const box = el("section", {class: `card ${section.kind}`, "data-kind": section.kind});
    box.appendChild(el("h2", {}, section.title));
    box.appendChild(draw(section) || el("p", {class: "empty"}, pageWord("nothing")));
    main.appendChild(box);
  }
  // opened from the daily result's button (…&card=daily): its card drawn at once, in view
  const asked = query.get("card") === "daily" && main.querySelector('.share button[data-card="daily"]');
  if (asked) {
    asked.scrollIntoView({block: "center"});
    asked.click();
  }
}
function refusedPage(answer) {
  if (answer.data.language) document.documentElement.lang = answer.data.language;
  const main = $("page");
  main.innerHTML = "";
  main.appendChild(el("p", {id: "refused", class: "wrong", role: "status"},
                      answer.data.said || "⚠"));
}
async function loadPage() {
  $("app").hidden = true;
  const main = el("main", {id: "page"});
  document.body.insertBefore(main, $("app"));
  theme();
  loadTelegram();
  const app = webApp();
  if (app && app.ready) app.ready();
  let answer;
  try {
    const response = await fetch("api/page", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({init_data: initData(), page: pageAsked(), language: askedLanguage()})});
    let data = {};
    try { data = await response.json(); } catch (e) { data = {}; }
    answer = {status: response.status, data};
  } catch (e) { answer = {status: 0, data: {}}; }
  if (answer.status === 200) drawPage(answer.data);
  else refusedPage(answer);
}
loadPage();
