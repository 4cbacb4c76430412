// The Mini App's page. It draws the round the bot describes — tiles and a target, or a table of
// rolls — and sends back the answer made here: tiles combined two at a time (every tile into one,
// or any tile chosen, each step whole where the bot says so), or a number typed. Every word it
// shows comes from the bot, in the user's language; it names no game. Values are exact fractions
// (BigInt); the server rebuilds the expression from the steps and judges it like a typed answer.
// Works with Telegram's WebApp object when there is one (theme), and without it (a browser, the
// demo, the tests). A link to a player's, a group's or a tournament's page loads pages.js instead.
"use strict";

// --- exact fractions ------------------------------------------------------------------------
function gcd(a, b) { a = a < 0n ? -a : a; b = b < 0n ? -b : b; while (b) { [a, b] = [b, a % b]; } return a; }
function frac(n, d = 1n) {
  if (d < 0n) { n = -n; d = -d; }
  const g = gcd(n, d) || 1n;
  return {n: n / g, d: d / g};
}
function apply(a, op, b) {
  if (op === "+") return frac(a.n * b.d + b.n * a.d, a.d * b.d);
  if (op === "-") return frac(a.n * b.d - b.n * a.d, a.d * b.d);
  if (op === "*") return frac(a.n * b.n, a.d * b.d);
  if (b.n === 0n) return null;
  return frac(a.n * b.d, a.d * b.n);
}
function away(v, target) { const d = v.n - target * v.d; return frac(d < 0n ? -d : d, v.d); }
function atMost(a, b) { return a.n * b.d <= b.n * a.d; }
// numbers in the digits of the user's language, as the bot's messages write them (Persian ones in
// Persian); in a right-to-left language a value inside a sentence is kept left to right
function local(text) { return String(text).replace(/[0-9]/g, (d) => state.digits[d]); }
function isolated(text) { return state.rtl ? `\u2066${text}\u2069` : text; }
function fracText(v) {
  return isolated(local((v.n < 0n ? "−" : "") + (v.n < 0n ? -v.n : v.n).toString() + (v.d === 1n ? "" : `/${v.d}`)));
}
function fracHtml(v) {
  const sign = v.n < 0n ? "−" : "";
  const n = local(v.n < 0n ? -v.n : v.n);
  if (v.d === 1n) return sign + n;
  return `${sign}<span class="frac"><span class="num">${n}</span><span class="den">${local(v.d)}</span></span>`;
}

// --- Telegram, or not -------------------------------------------------------------------------
const hash = new URLSearchParams(location.hash.slice(1));
const query = new URLSearchParams(location.search);
function webApp() { return (window.Telegram && window.Telegram.WebApp) || null; }
function initData() { const app = webApp(); return (app && app.initData) || hash.get("tgWebAppData") || ""; }
function linkedTicket() {
  // the round a Direct Link's start parameter names: a page tied to its one round
  const app = webApp();
  const unsafe = app && app.initDataUnsafe;
  return (unsafe && unsafe.start_param) || new URLSearchParams(initData()).get("start_param")
    || hash.get("tgWebAppStartParam") || "";
}
function roundTicket() {
  if (state.ticket) return state.ticket;  // the hand this page follows now (a private chat's)
  return linkedTicket() || query.get("round") || "";
}
function askedLanguage() {
  // only chooses the words of a refusal when Telegram's signature does not check
  const app = webApp();
  const user = app && app.initDataUnsafe && app.initDataUnsafe.user;
  return (user && user.language_code) || navigator.language || "";
}
function theme() {
  const app = webApp();
  let params = app && app.themeParams;
  if (!params && hash.get("tgWebAppThemeParams")) {
    try { params = JSON.parse(hash.get("tgWebAppThemeParams")); } catch (e) { params = null; }
  }
  const dark = app && app.colorScheme ? app.colorScheme === "dark"
    : params && params.bg_color ? luminance(params.bg_color) < 0.5
    : window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  document.documentElement.classList.toggle("dark", !!dark);
  const names = {bg_color: "--bg", text_color: "--text", hint_color: "--hint", button_color: "--button",
                 button_text_color: "--button-text", secondary_bg_color: "--tile"};
  for (const [key, variable] of Object.entries(names)) {
    if (params && params[key]) document.documentElement.style.setProperty(variable, params[key]);
  }
}
function luminance(color) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (!m) return 1;
  return (0.299 * parseInt(m[1], 16) + 0.587 * parseInt(m[2], 16) + 0.114 * parseInt(m[3], 16)) / 255;
}
function loadTelegram() {
  // inside Telegram the hash says so: its script gives the theme's changes and ready(); it is
  // never needed to play, and never fetched elsewhere
  if (webApp() || !hash.get("tgWebAppVersion")) return;
  const script = document.createElement("script");
  script.src = "https://telegram.org/js/telegram-web-app.js";
  script.onload = () => { const app = webApp(); if (app) { app.ready(); app.expand(); theme();
    app.onEvent && app.onEvent("themeChanged", theme); } };
  document.head.appendChild(script);
}

// --- the round ------------------------------------------------------------------------------
const state = {form: null, words: {}, numbers: [], target: 0n, tiles: [], steps: [], history: [],
               picked: null, op: null, done: false, busy: false, ends: 0, ticket: "",
               following: false, ticking: false, digits: "0123456789", rtl: false};
// a private chat's page follows its person's next hand there (a streak's, a storm's): asked for
// once a second after its round ended, a few times (the next comes 1–2 s after a result)
const FOLLOW_TRIES = 8, FOLLOW_EVERY = 1000;
const $ = (id) => document.getElementById(id);
function say(text, kind) { const v = $("verdict"); v.textContent = text || ""; v.className = kind || ""; }
function word(key, values = {}) {
  const text = state.words[key];
  if (text === undefined) return "⚠";  // no words yet: the bot was never reached
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : ""));
}
function combining() { return state.form && state.form.kind === "combine"; }

function start() {
  state.tiles = state.numbers.map((n) => ({value: frac(BigInt(n)), made: false}));
  state.steps = []; state.history = []; state.picked = null; state.op = null;
  say("");
  draw();
}
function candidate() {
  // the tile Submit sends where any tile may answer: the one picked, else the closest (the
  // newest of equally close ones)
  if (state.picked !== null) return state.picked;
  let best = 0;
  state.tiles.forEach((tile, i) => {
    if (atMost(away(tile.value, state.target), away(state.tiles[best].value, state.target))) best = i;
  });
  return best;
}
function draw() {
  if (!combining()) { $("submit").disabled = state.done || state.busy || !$("guess").value; return; }
  const every = state.form.every;
  const chosen = every ? null : candidate();
  const row = $("tiles");
  row.innerHTML = "";
  state.tiles.forEach((tile, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "tile" + (tile.made ? " made" : "") + (state.picked === index ? " selected" : "")
      + (chosen === index && state.picked === null ? " candidate" : "");
    button.dataset.index = String(index);
    button.dataset.value = tile.value.d === 1n ? `${tile.value.n}` : `${tile.value.n}/${tile.value.d}`;
    button.innerHTML = fracHtml(tile.value);
    button.disabled = state.done;
    button.addEventListener("click", () => tap(index));
    row.appendChild(button);
  });
  for (const button of document.querySelectorAll(".op")) {
    button.classList.toggle("selected", button.dataset.op === state.op);
    button.disabled = state.done;
  }
  $("undo").disabled = state.done || state.steps.length === 0;
  $("reset").disabled = state.done || state.steps.length === 0;
  $("submit").disabled = state.done || state.busy || (every && state.tiles.length !== 1);
  const answer = $("answer");
  answer.hidden = every;
  if (every) return;
  const value = state.tiles[chosen].value;
  const distance = away(value, state.target);
  answer.textContent = distance.n === 0n ? word("answer_exact", {value: fracText(value)})
    : word("answer_away", {value: fracText(value), distance: fracText(distance)});
}
function tap(index) {
  if (state.done) return;
  if (state.picked === null || state.picked === index) {
    state.picked = state.picked === index ? null : index;
    state.op = null;
  } else if (state.op === null) {
    state.picked = index;
  } else {
    const made = apply(state.tiles[state.picked].value, state.op, state.tiles[index].value);
    const refused = made === null ? "zero"
      : state.form.whole && !(made.d === 1n && made.n > 0n) ? "not_whole" : null;
    if (refused) { say(word(refused), "wrong"); state.op = null; draw(); return; }
    state.history.push(state.tiles);
    state.steps.push([state.picked, state.op, index]);
    const left = state.picked;
    state.tiles = state.tiles.filter((_, i) => i !== left && i !== index).concat([{value: made, made: true}]);
    state.picked = null; state.op = null;
    say("");
  }
  draw();
}
function pickOp(op) {
  if (state.done || state.picked === null) return;
  state.op = state.op === op ? null : op;
  draw();
}
function undo() {
  if (!state.steps.length) return;
  state.tiles = state.history.pop(); state.steps.pop(); state.picked = null; state.op = null;
  say(""); draw();
}

async function call(path, body) {
  const response = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({init_data: initData(), round: roundTicket(), language: askedLanguage(), ...body})});
  let data = {};
  try { data = await response.json(); } catch (e) { data = {}; }
  return {status: response.status, data};
}
function refused(answer) {
  // the bot's words for a refusal, in the asker's language; else the page's own
  if (answer.data.language) document.documentElement.lang = answer.data.language;
  const said = answer.data.said || word(answer.status === 410 ? "over" : answer.status === 403 ? "forbidden" : "failed");
  // a round over: what every solution of its hand needs, on a line of its own under the words
  say(answer.data.after ? `${said}\n${answer.data.after}` : said, "wrong");
  if (answer.status === 410) { state.done = true; follow(); }
}
function privatePage() {
  // a private chat's page, opened from a deal's button (its ticket's chat is the person's, > 0)
  // or from the bot's menu (no round at all)
  return !linkedTicket() && (!roundTicket() || /^[0-9]+_0_[0-9]+$/.test(roundTicket()));
}
async function follow(tries = FOLLOW_TRIES) {
  if (!privatePage() || state.following) return;
  state.following = true;
  try {
    for (let tried = 0; tried < tries; tried++) {
      if (tried || tries === FOLLOW_TRIES) await new Promise((resolve) => setTimeout(resolve, FOLLOW_EVERY));
      let next;
      try { next = await call("api/next", {}); } catch (e) { continue; }
      if (next.status !== 200) return;  // refused: this page follows nothing
      if (!next.data.round) continue;
      $("modes").hidden = true;
      state.ticket = next.data.round;
      const shown = await call("api/round", {});
      if (shown.status !== 200) { refused(shown); return; }
      state.done = false;
      $("guess").disabled = false; $("guess").value = "";
      show(shown.data);
      return;
    }
    $("modes").hidden = false;  // nothing followed: a streak, a storm or practice from here
  } finally { state.following = false; }
}
async function startMode(mode) {
  const buttons = document.querySelectorAll(".mode");
  for (const button of buttons) button.disabled = true;
  let started;
  try { started = await call("api/start", {mode}); } catch (e) { started = null; }
  for (const button of buttons) button.disabled = false;
  if (started === null) { say(word("failed"), "wrong"); return; }
  if (started.status !== 200) { refused(started); return; }
  if (!started.data.dealt) { say(started.data.text, "wrong"); return; }
  $("modes").hidden = true;
  say("");
  follow();
}
function answerBody() {
  if (!combining()) return {guess: $("guess").value};
  return state.form.every ? {steps: state.steps} : {steps: state.steps, tile: candidate()};
}
async function submit() {
  if (state.done || state.busy || $("submit").disabled) return;
  state.busy = true; draw();
  let answer;
  try { answer = await call("api/answer", answerBody()); }
  catch (e) { answer = null; }
  state.busy = false;
  if (answer === null) say(word("failed"), "wrong");
  else if (answer.status !== 200) refused(answer);
  else if (answer.data.right) { state.done = true; say(answer.data.text, "right"); }
  else {
    say(answer.data.held ? word("held") : answer.data.text, "wrong");
    if (!combining()) $("guess").value = "";
    if (answer.data.over) state.done = true;  // a miss ended it (a streak's or a storm's hand)
  }
  if (state.done) $("guess").disabled = true;
  draw();
  if (state.done) follow();
}
function tick() {
  if (!state.ends) return;
  const left = Math.max(0, Math.round((state.ends - Date.now()) / 1000));
  const timer = $("timer");
  const time = isolated(local(`${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`));
  timer.textContent = left > 0 ? word("time_left", {time}) : word("time_up");
  timer.classList.toggle("low", left <= 10);
}
function rolls(puzzle) {
  const heads = $("heads"), rows = $("rows");
  heads.innerHTML = ""; rows.innerHTML = "";
  for (const head of ["#", "", ...puzzle.heads]) {
    const cell = document.createElement("th"); cell.textContent = head; heads.appendChild(cell);
  }
  puzzle.dice.forEach((dice, i) => {
    const row = document.createElement("tr");
    for (const [text, kind] of [[local(i + 1), "number"], [local(dice.join("")), "dice"],
                                ...puzzle.scores[i].map((s) => [s ? local(s) : "·", "score"])]) {
      const cell = document.createElement("td"); cell.textContent = text; cell.className = kind; row.appendChild(cell);
    }
    rows.appendChild(row);
  });
}
function show(round) {
  $("submit").hidden = false;
  state.words = round.words;
  state.form = round.answer;
  document.documentElement.lang = round.language;
  document.documentElement.dir = round.direction || "ltr";
  state.rtl = round.direction === "rtl";
  state.digits = round.digits || "0123456789";
  document.title = round.title;
  $("goal").textContent = word("goal");
  $("help").textContent = word("help");
  $("submit").textContent = word("submit");
  $("undo").textContent = word("undo"); $("reset").textContent = word("reset");
  $("guess-label").textContent = word("guess_label");
  $("combining").hidden = !combining();
  $("guessing").hidden = combining();
  if (combining()) {
    state.numbers = round.puzzle.tiles; state.target = BigInt(round.puzzle.target);
    start();
  } else {
    rolls(round.puzzle);
    const guess = $("guess");
    guess.placeholder = local(`${round.answer.low}–${round.answer.high}`);
    draw();
  }
  state.ends = Date.now() + round.seconds_left * 1000;
  tick();
  if (!state.ticking) { state.ticking = true; setInterval(tick, 500); }
}
async function load() {
  theme();
  loadTelegram();
  const app = webApp();
  if (app && app.ready) app.ready();
  if (!roundTicket() && privatePage()) {
    // opened from the bot's menu: the round on in the person's chat, if any; else the modes
    state.done = true; $("goal").textContent = ""; $("submit").hidden = true;
    await follow(1);
    return;
  }
  let shown;
  try { shown = await call("api/round", {}); }
  catch (e) { say(word("failed"), "wrong"); return; }
  if (shown.status !== 200) { state.done = true; refused(shown); $("goal").textContent = ""; return; }
  show(shown.data);
}

for (const button of document.querySelectorAll(".op")) button.addEventListener("click", () => pickOp(button.dataset.op));
$("undo").addEventListener("click", undo);
$("reset").addEventListener("click", () => { if (!state.done) start(); });
$("submit").addEventListener("click", submit);
for (const button of document.querySelectorAll(".mode")) button.addEventListener("click", () => startMode(button.dataset.mode));
$("guess").addEventListener("input", draw);
$("guess").addEventListener("keydown", (event) => { if (event.key === "Enter") submit(); });
// a player's, a group's or a tournament's page (u<id>, g<chat>, t<id>, t<id>_<its key>) rather
// than a round: pages.js draws it
if (query.get("page") || /^([ugt]-?[0-9]+|t[0-9]+_[0-9A-Z]+)$/.test(roundTicket())) {
  $("app").hidden = true;
  document.head.appendChild(Object.assign(document.createElement("link"), {rel: "stylesheet", href: "pages.css"}));
  document.body.appendChild(Object.assign(document.createElement("script"), {src: "pages.js"}));
} else {
  load();
}
