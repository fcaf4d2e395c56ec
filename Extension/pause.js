"use strict";
// The pause page: the asked-for address is in the fragment. It begins only
// once the background says MIGA sent this tab here (claims.js): opened any
// other way, it shows a line and does nothing. Then it opens its own port to
// the host (one host process, one pause), draws each `PauseState` it is
// sent, ticks once a second and sends the person's choices. Without the
// host it holds the pause itself (local-pause.js) and queues the outcome.
// Everything from a message reaches the page as text (textContent), never markup.

const target = location.hash.slice(1);
const $ = (id) => document.getElementById(id);
const RING = 2 * Math.PI * 54;
const NOTICES = {
  notYet: "It opens at zero. There is no hurry.",
  wholeLineFirst: "The whole line first.",
  notQuite: "Not quite. Look again, and type it as it stands.",
  pasteRefused: "Pasted words do not count: type them.",
  fewWordsFirst: "A few words first.",
};

let host = null;
let local = null;
let holding = false;
let site = null;
let state = null;
let ended = false;
let localNotice = null;
let queue = Promise.resolve();

const text = (value) => (typeof value === "string" ? value : "");
const isAddress = (value) => typeof value === "string" && /^https?:\/\//i.test(value);

function render(next) {
  if (!next || typeof next !== "object" || !next.quote || !Array.isArray(next.quote.verses)) return;
  state = next;
  document.title = "A pause · " + text(next.header);
  $("header").textContent = text(next.header);
  $("facts").replaceChildren(...(Array.isArray(next.facts) ? next.facts : []).map((fact) => {
    const item = document.createElement("li");
    item.textContent = text(fact);
    return item;
  }));
  $("verses").replaceChildren(...next.quote.verses.map((verse) => {
    const line = document.createElement("span");
    line.textContent = text(verse);
    return line;
  }));
  $("source").textContent = text(next.quote.source);
  const length = Math.max(1, Number(next.length) || 1);
  const left = Math.min(length, Math.max(0, Number(next.secondsLeft) || 0));
  $("arc").style.strokeDasharray = String(RING);
  $("arc").style.strokeDashoffset = String(RING * (1 - left / length));
  $("seconds").textContent = left > 0 ? String(left) : "";
  const choices = Array.isArray(next.choices) ? next.choices : [];
  $("deepen").hidden = !choices.includes("deepen");
  $("instead").hidden = !choices.includes("alternative") || !next.alternative;
  $("instead").textContent = text(next.alternative);
  $("proceed-label").textContent = text(next.proceedLabel) || "Proceed";
  $("proceed").setAttribute("aria-disabled", next.proceedOpen ? "false" : "true");
  renderAnswer(next);
  const said = (name) => (typeof name === "string" && Object.hasOwn(NOTICES, name) ? NOTICES[name] : null);
  const notice = said(next.notice) ?? said(localNotice) ?? (next.held ? "Waiting while you look away." : "");
  $("notice").textContent = notice;
  $("longer").textContent = text(next.longerBecause) || (Array.isArray(next.problems) ? next.problems.map(text).join(" ") : "");
}

// The line to type back, or the question before Proceed, when it is open.
function renderAnswer(next) {
  const typing = next.typing?.open ? next.typing : null;
  const asking = next.intention && typeof next.intention.answer === "string" ? next.intention : null;
  const form = $("answer");
  const wasHidden = form.hidden;
  form.hidden = !typing && !asking;
  form.dataset.choice = typing ? "typedLine" : asking ? "intention" : "";
  $("answer-label").textContent = typing ? "Type this line: " + text(typing.line) : asking ? text(asking.question) : "";
  if (wasHidden && !form.hidden) {
    $("answer-input").value = asking ? asking.answer : "";
    $("answer-input").focus();
  }
}

// One message at a time, answers in order: a tick never overtakes a choice.
function send(message) {
  queue = queue.then(async () => {
    if (ended) return;
    if (local) return handle(local.choose(message.choice?.choice));
    handle(await host.request(message));
  });
  return queue;
}

function choose(choice) {
  localNotice = null;
  return send({ type: "choose", choice });
}

function handle(answer) {
  if (ended) return;
  if (!answer) return holdWithoutHost();
  switch (answer.type) {
    case "state": return render(answer.state);
    case "open": return proceedTo(target, answer.allowedUntil);
    case "ended": return end(answer);
    default: if (!state) holdWithoutHost();
  }
}

// The host is missing or went away: the pause goes on here, from where it was.
async function holdWithoutHost() {
  if (holding || ended) return;
  holding = true;
  const { rules } = await ext.storage.local.get("rules");
  local = MigaLocalPause.create({ site, target, quotes: rules?.quotes, from: state });
  $("without-host").hidden = false;
  host?.close();
  render(local.state());
}

async function end(answer) {
  ended = true;
  if (answer.outcome) await MigaHost.queue(answer.outcome);
  host?.close();
  if (isAddress(answer.open)) await proceedTo(answer.open, answer.allowedUntil);
  else location.replace(MigaRules.pageURL("focus.html"));
}

// Lets this tab through for its visit (and every tab until the allowance's
// end, the host's word), then opens the address exactly.
async function proceedTo(address, allowedUntil) {
  ended = true;
  host?.close();
  await ext.runtime.sendMessage({ type: "let-through", url: target, allowedUntil }).catch(() => null);
  location.replace(address);
}

function proceed() {
  if (!state?.proceedOpen && !$("answer").dataset.choice) {
    localNotice = "notYet";
    $("notice").textContent = NOTICES.notYet;
    return;
  }
  choose({ choice: "proceed" });
}

document.addEventListener("keydown", (event) => {
  if (ended || event.ctrlKey || event.altKey || event.metaKey || event.repeat) return;
  if (event.target === $("answer-input")) {
    if (event.key === "Escape") { event.preventDefault(); choose({ choice: "back" }); }
    return;
  }
  const key = event.key.toLowerCase();
  if (key === "e") choose({ choice: "exitToFocus" });
  else if (key === "d" && state?.choices?.includes("deepen")) choose({ choice: "deepen" });
  else if (key === "p" || key === "enter") proceed();
  else return;
  event.preventDefault();
});
$("exit").addEventListener("click", () => choose({ choice: "exitToFocus" }));
$("deepen").addEventListener("click", () => choose({ choice: "deepen" }));
$("instead").addEventListener("click", () => choose({ choice: "alternative" }));
$("proceed").addEventListener("click", proceed);
$("answer").addEventListener("submit", (event) => {
  event.preventDefault();
  const choice = $("answer").dataset.choice;
  if (choice) choose({ choice, text: $("answer-input").value });
});
// Whether the pause is in sight: the host holds the countdown meanwhile for
// a site that asks it (hold_when_unfocused), and takes it as nothing for others.
document.addEventListener("visibilitychange", () => {
  if (state) send({ type: "choose", choice: { choice: "focus", focused: !document.hidden } });
});

// Opened by anything but MIGA (another page's frame or window, a second
// look at the same address): a line, and nothing else, no host, no record.
function inert() {
  ended = true;
  $("pause").hidden = true;
  $("not-sent").hidden = false;
  // The person may still want the address: asked for again, it meets the rules as any visit does.
  $("again").hidden = !isAddress(target);
  $("again").addEventListener("click", () => location.replace(target));
  document.body.classList.add("claimed");
}

// The address opened (caught by a redirect that holds more than its site,
// or let through meanwhile). Once per address within a few seconds: a
// second time would be a loop, which the page stops.
function openOnce() {
  const last = JSON.parse(sessionStorage.getItem("migaOpened") ?? "null");
  if (last?.target === target && Date.now() - last.at < 10_000) return false;
  sessionStorage.setItem("migaOpened", JSON.stringify({ target, at: Date.now() }));
  ended = true;
  location.replace(target);
  return true;
}

// Not claimed where web pages cannot open this page at all (Chromium's
// per-session address): the redirect came before the background could hear
// of it (the first visit of a private window's, the first tab of a start).
// The address is asked for again, once, and the redirect that meets it now
// is heard.
function askAgain() {
  if (MigaRules.holdsRequests || sessionStorage.getItem("migaAskedAgain") === target) return false;
  sessionStorage.setItem("migaAskedAgain", target);
  ended = true;
  location.replace(target);
  return true;
}

async function begin() {
  if (window.top !== window || !isAddress(target)) return inert();
  const claim = await ext.runtime.sendMessage({ type: "claim", url: target }).catch(() => null);
  if (!claim?.ok) return askAgain() || inert();
  sessionStorage.removeItem("migaAskedAgain");
  if (claim.open) {
    if (!openOnce()) inert();
    return;
  }
  site = claim.site;
  document.body.classList.add("claimed");
  host = MigaHost.open();
  host.onGone(() => { if (!ended) holdWithoutHost(); });
  await send({ type: "pause", url: target });
  // Each pause with the host is a contact: the outcomes of pauses held without it are handed over.
  if (!local) MigaHost.handOver(host).catch(() => {});
  setInterval(() => { if (!ended) send({ type: "tick" }); }, 1000);
}

begin();
