// The Mini App's page: tap a tile, an operation and another tile to combine them; undo, reset,
// submit when one tile is left. Values are exact fractions (BigInt); the server rebuilds the
// expression from the steps and judges it like a typed answer. Works with Telegram's WebApp
// object when there is one (theme, language), and without it (a browser, the demo, the tests).
"use strict";

const WORDS = {
  en: {goal: "Make {target}", undo: "Undo", reset: "Reset", submit: "Submit",
       help: "Tap a number, an operation, then another number.",
       zero: "Can't divide by zero.", over: "This round is over.", held: "Slow down a little.",
       failed: "Could not reach the bot; try again.", forbidden: "This page is not signed for this round.",
       left: "{n} left", timeUp: "Time's up"},
  zh: {goal: "凑出 {target}", undo: "撤销", reset: "重来", submit: "提交",
       help: "点一个数、一个运算，再点另一个数。",
       zero: "不能除以零。", over: "这一局已经结束。", held: "请慢一点。",
       failed: "连不上机器人，请再试一次。", forbidden: "这个页面没有这一局的签名。",
       left: "剩 {n}", timeUp: "时间到"},
};
const SHOWN = {"+": "+", "-": "−", "*": "×", "/": "÷"};

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
function fracHtml(v) {
  const sign = v.n < 0n ? "−" : "";
  const n = v.n < 0n ? -v.n : v.n;
  if (v.d === 1n) return sign + n.toString();
  return `${sign}<span class="frac"><span class="num">${n}</span><span class="den">${v.d}</span></span>`;
}

// --- Telegram, or not -------------------------------------------------------------------------
const hash = new URLSearchParams(location.hash.slice(1));
const query = new URLSearchParams(location.search);
function webApp() { return (window.Telegram && window.Telegram.WebApp) || null; }
function initData() { const app = webApp(); return (app && app.initData) || hash.get("tgWebAppData") || ""; }
function roundTicket() {
  const app = webApp();
  const unsafe = app && app.initDataUnsafe;
  return (unsafe && unsafe.start_param) || new URLSearchParams(initData()).get("start_param")
    || hash.get("tgWebAppStartParam") || query.get("round") || "";
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

// --- the game -------------------------------------------------------------------------------
const state = {numbers: [], target: 24, tiles: [], steps: [], history: [], picked: null, op: null,
               words: WORDS.en, done: false, ends: 0};
const $ = (id) => document.getElementById(id);
function say(text, kind) { const v = $("verdict"); v.textContent = text || ""; v.className = kind || ""; }
function word(key, values = {}) { return state.words[key].replace(/\{(\w+)\}/g, (_, k) => values[k]); }

function start() {
  state.tiles = state.numbers.map((n) => ({value: frac(BigInt(n)), made: false}));
  state.steps = []; state.history = []; state.picked = null; state.op = null;
  say("");
  draw();
}
function draw() {
  const row = $("tiles");
  row.innerHTML = "";
  state.tiles.forEach((tile, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "tile" + (tile.made ? " made" : "") + (state.picked === index ? " selected" : "");
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
  $("submit").disabled = state.done || state.tiles.length !== 1;
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
    if (made === null) { say(word("zero"), "wrong"); state.op = null; draw(); return; }
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
                                      body: JSON.stringify({init_data: initData(), round: roundTicket(), ...body})});
  let data = {};
  try { data = await response.json(); } catch (e) { data = {}; }
  return {status: response.status, data};
}
function refused(status) {
  return status === 403 ? word("forbidden") : status === 410 ? word("over") : word("failed");
}
async function submit() {
  if (state.done || state.tiles.length !== 1) return;
  $("submit").disabled = true;
  let answer;
  try { answer = await call("api/answer", {steps: state.steps}); }
  catch (e) { say(word("failed"), "wrong"); draw(); return; }
  const {status, data} = answer;
  if (status !== 200) { say(refused(status), "wrong"); if (status === 410) { state.done = true; } draw(); return; }
  if (data.right) { state.done = true; say(data.text, "right"); }
  else { say(data.held ? word("held") : data.text, "wrong"); }
  draw();
}
function tick() {
  if (!state.ends) return;
  const left = Math.max(0, Math.round((state.ends - Date.now()) / 1000));
  const timer = $("timer");
  timer.textContent = left > 0 ? word("left", {n: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`}) : word("timeUp");
  timer.classList.toggle("low", left <= 10);
}
async function load() {
  theme();
  loadTelegram();
  const app = webApp();
  if (app && app.ready) app.ready();
  const user = app && app.initDataUnsafe && app.initDataUnsafe.user;
  state.words = WORDS[user && /^zh/i.test(user.language_code || "") ? "zh" : "en"];
  let shown;
  try { shown = await call("api/round", {}); }
  catch (e) { say(word("failed"), "wrong"); return; }
  if (shown.status !== 200) { say(refused(shown.status), "wrong"); state.done = true; labels(); draw(); return; }
  const round = shown.data;
  state.words = WORDS[round.language] || WORDS.en;
  state.numbers = round.numbers; state.target = round.target;
  state.ends = Date.now() + round.seconds_left * 1000;
  labels();
  start();
  tick();
  setInterval(tick, 500);
}
function labels() {
  document.documentElement.lang = state.words === WORDS.zh ? "zh" : "en";
  $("goal").textContent = word("goal", {target: state.target});
  $("undo").textContent = word("undo"); $("reset").textContent = word("reset");
  $("submit").textContent = word("submit"); $("help").textContent = word("help");
}

for (const button of document.querySelectorAll(".op")) button.addEventListener("click", () => pickOp(button.dataset.op));
$("undo").addEventListener("click", undo);
$("reset").addEventListener("click", () => { if (!state.done) start(); });
$("submit").addEventListener("click", submit);
labels();
load();
