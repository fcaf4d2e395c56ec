"use strict";
// The background: keeps a conversation with MIGA open, so that the rules it
// hands over are in place before a navigation needs them and a change
// reaches the browser at once; and meets every visit to a protected site
// with the pause, whatever answers it: the redirects for what goes to the
// network, and a second net for what they cannot see (a site's service
// worker, the back/forward cache, a prerender, a single-page navigation, a
// tab open before the rules were). Chromium runs it as a service worker
// (shared scripts imported here), Firefox as background scripts (listed in
// its manifest before this one).
if (typeof importScripts === "function") importScripts("rules.js", "quotes.js", "host.js", "workers.js", "claims.js");

let sites = [];
let cached = false;
// The rules in place (from the cache, then from MIGA): every listener waits for it.
const ready = (async () => {
  const { rules } = await ext.storage.local.get("rules");
  sites = rules?.sites ?? [];
  cached = Boolean(rules);
  connect();
})();
// Settled once MIGA has given its rules, or cannot be reached.
let settle;
const firstWord = new Promise((resolve) => { settle = resolve; });

// MIGA's word, or why it could not be reached: the toolbar says so.
async function reached(state) {
  await ext.storage.local.set({ host: { ...state, at: Date.now() } });
  await ext.action.setBadgeText({ text: state.ok ? "" : "!" });
  if (!state.ok) await ext.action.setBadgeBackgroundColor({ color: "#B3261E" });
  await ext.action.setTitle({ title: state.ok ? "MIGA: protected sites pause here" : "MIGA is not answering: click for what to do" });
}

let port = null;
// While MIGA cannot be reached, a new try at most this often (each starts a host process).
const RETRY_AFTER_MS = 30_000;
let lastTry = 0;
function connect() {
  if (port || Date.now() - lastTry < RETRY_AFTER_MS) return;
  lastTry = Date.now();
  port = MigaHost.watch({
    onRules: apply,
    onError: settle,
    onGone: (why) => { port = null; settle(); reached({ ok: false, why }); },
  });
}

// The host's rules put in place: the redirects, the cache for a pause
// without the host, and no worker left to answer a newly protected site.
async function apply(answer) {
  const given = MigaRules.sitesFrom(answer);
  if (!given) return;
  const added = given.filter((site) => !sites.some((old) => old.site === site.site));
  sites = given;
  await ext.storage.local.set({ rules: { sites: given, quotes: MigaQuotes.from(answer.quotes) } });
  const refused = await MigaRules.replaceRedirects(given);
  cached = true;
  settle();
  await reached({ ok: true, sites: given.length, refused });
  await MigaWorkers.removeFor(added);
  await checkOpenTabs();
  // The outcomes of pauses held without MIGA, if any, handed over now it answers.
  const { queued = [] } = await ext.storage.local.get("queued");
  if (queued.length) {
    const host = MigaHost.open();
    MigaHost.handOver(host).finally(() => host.close());
  }
}

// A tab on a protected site that nothing lets through goes to the pause.
async function pauseIfProtected(tabId, url) {
  const verdict = await MigaRules.verdict(url, tabId, sites);
  if (verdict.open) return false;
  await MigaClaims.expect(tabId, url);
  await ext.tabs.update(tabId, { url: MigaRules.pauseURL(url) });
  await MigaWorkers.removeUnlessInUse([verdict.site], url);
  return true;
}

// Tabs open before the rules were (a start-up tab, a restored one, one
// still loading: its address is pending).
async function checkOpenTabs() {
  for (const tab of await ext.tabs.query({})) {
    if (tab.id !== undefined) await pauseIfProtected(tab.id, tab.pendingUrl || tab.url).catch(() => {});
  }
}

// A tab's visit ends when it leaves the site, for whatever page: its allow
// rules go with it, and the site's workers, so that no later visit is
// answered without the pause.
function endVisits(tabId, url) {
  return MigaRules.inTurn(async () => {
    const kept = await MigaRules.allowances();
    // A one-time allow ends when its address has opened (or at its deadline).
    const ended = Object.entries(kept).filter(([, entry]) => entry.tabId === tabId
      && (url === null || (entry.once ? entry.once === url.split("#")[0] : MigaRules.covering(url, sites)?.site !== entry.site)));
    await endEach(ended);
  });
}

function endAllowances() {
  return MigaRules.inTurn(async () => {
    const kept = await MigaRules.allowances();
    await endEach(Object.entries(kept).filter(([, entry]) => Number.isFinite(entry.until) && entry.until <= Date.now()));
  });
}

// Allowances over: their rules go, and their sites' workers, where no other visit uses them.
async function endEach(over) {
  await MigaRules.removeAllowances(over.map(([id]) => Number(id)));
  await MigaWorkers.removeUnlessInUse(sites.filter((site) => over.some(([, entry]) => entry.site === site.site)));
}

const mainFrame = (details) => details.frameId === 0 && /^https?:/i.test(details.url);

ext.runtime.onStartup.addListener(() => { ready.then(checkOpenTabs).catch(() => {}); });
ext.runtime.onInstalled.addListener(() => { ready.then(checkOpenTabs).catch(() => {}); });
ext.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === "allowances") ready.then(endAllowances).catch(() => {});
});

// What commits on a protected site without passing the redirects (a site's
// worker answered it, the back/forward cache restored it, a tab opened
// before the rules were) goes to the pause, and the site's workers go with
// it. Any page the tab goes to ends a visit it is not on (MIGA's own pages
// too: a tab that left for the focus page comes back through a pause).
ext.webNavigation.onCommitted.addListener((details) => {
  if (details.frameId !== 0) return;
  connect();
  ready.then(async () => {
    await endVisits(details.tabId, details.url);
    if (/^https?:/i.test(details.url)) {
      if (!await pauseIfProtected(details.tabId, details.url)) await MigaWorkers.noteVisit(details.url, sites);
    }
  }).catch(() => {});
});
ext.webNavigation.onHistoryStateUpdated.addListener((details) => {
  if (mainFrame(details)) ready.then(() => pauseIfProtected(details.tabId, details.url)).catch(() => {});
});
ext.tabs.onRemoved.addListener((tabId) => {
  ready.then(() => Promise.all([endVisits(tabId, null), MigaClaims.forget(tabId)])).catch(() => {});
});

// Each address a tab is about to ask for, which a redirect may send to the
// pause page (a rule catches more than its site, so any): the pause page
// asks whether it did (MigaClaims).
// Only a host a redirect may catch is kept (those of the sites, with their subdomains).
if (ext.webRequest && !MigaRules.holdsRequests) {
  ext.webRequest.onBeforeRequest.addListener((details) => {
    if (details.tabId < 0) return;
    ready.then(() => {
      let host;
      try { host = new URL(details.url).hostname.replace(/\.$/, ""); } catch (error) { return; }
      const caught = sites.some((site) => site.domains.some((domain) => host === domain || host.endsWith("." + domain)));
      if (caught) return MigaClaims.expect(details.tabId, details.url);
    }).catch(() => {});
  }, { urls: ["http://*/*", "https://*/*"], types: ["main_frame"] });
}

// Firefox still lets a listener hold a request, and starts the background
// for one (a listener of a background asleep or not yet begun at a
// browser's start is kept and woken): there every visit is decided here,
// before it goes out, with the rules MIGA gave (waiting, after an install,
// for its first word), and no redirect rule is needed; a request a rule
// sent on would be one the background never hears of at a start.
if (MigaRules.holdsRequests) {
  const LONGEST_HOLD_MS = 10_000;
  let waited = false;
  ext.webRequest.onBeforeRequest.addListener(async (details) => {
    if (details.tabId < 0) return {};
    try {
      await ready;
      if (!cached && !waited) await Promise.race([firstWord, new Promise((resolve) => setTimeout(resolve, LONGEST_HOLD_MS))]);
      waited = true;
      const verdict = await MigaRules.verdict(details.url, details.tabId, sites);
      if (verdict.open) return {};
      await MigaClaims.expect(details.tabId, details.url);
    } catch (error) {
      // Something went wrong deciding: a protected site still meets the pause.
      if (!MigaRules.covering(details.url, sites)) return {};
    }
    return { redirectUrl: MigaRules.pauseURL(details.url) };
  }, { urls: ["http://*/*", "https://*/*"], types: ["main_frame"] }, ["blocking"]);
}

ext.runtime.onMessage.addListener((message, sender, reply) => {
  if (sender.id !== ext.runtime.id) return false;
  ready.then(() => MigaClaims.answer(message, sender, sites)).then(reply, () => reply(null));
  return true;
});
