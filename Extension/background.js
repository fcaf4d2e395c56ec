"use strict";
// The background: keeps the redirects in step with the host's rules, pauses
// what the redirects cannot see (single-page navigations, tabs open at
// start-up), and ends allowances. Chromium runs it as a service worker
// (shared scripts imported here), Firefox as background scripts (listed in
// its manifest before this one).
if (typeof importScripts === "function") importScripts("rules.js", "quotes.js", "host.js");

// The rules are asked for again on a navigation once they are this old: a
// site protected since reaches an open browser within a minute of browsing,
// and no timer runs while the person is not browsing.
const REFRESH_AFTER_MS = 60 * 1000;

async function refreshIfOld() {
  const { refreshedAt = 0 } = await ext.storage.local.get("refreshedAt");
  if (Date.now() - refreshedAt < REFRESH_AFTER_MS) return;
  await ext.storage.local.set({ refreshedAt: Date.now() });
  await MigaHost.refresh();
}

async function cachedSites() {
  const { rules } = await ext.storage.local.get("rules");
  return rules?.sites ?? [];
}

// A tab on a protected site that no allow rule lets through goes to the pause.
async function pauseIfProtected(tabId, url) {
  if (typeof url !== "string" || !/^https?:/i.test(url)) return;
  const site = MigaRules.covering(url, await cachedSites());
  if (!site || await MigaRules.allowed(tabId, site.site)) return;
  await ext.tabs.update(tabId, { url: MigaRules.pauseURL(url) });
}

async function checkOpenTabs() {
  for (const tab of await ext.tabs.query({})) {
    if (tab.id !== undefined) await pauseIfProtected(tab.id, tab.url).catch(() => {});
  }
}

// A tab's visit ends when it leaves the site, for whatever page: its allow rule goes with it.
async function endVisit(tabId, url) {
  const rules = await ext.declarativeNetRequest.getSessionRules();
  const ended = rules.filter((rule) => rule.condition.tabIds?.includes(tabId)
    && (url === null || !new RegExp(rule.condition.regexFilter, "i").test(url)));
  if (ended.length) await ext.declarativeNetRequest.updateSessionRules({ removeRuleIds: ended.map((rule) => rule.id) });
}

async function endAllowances() {
  const { allowances = {} } = await ext.storage.local.get("allowances");
  const sessionIds = new Set((await ext.declarativeNetRequest.getSessionRules()).map((rule) => rule.id));
  const over = Object.keys(allowances).filter((id) => allowances[id] <= Date.now() || !sessionIds.has(Number(id)));
  if (over.length) {
    await ext.declarativeNetRequest.updateSessionRules({ removeRuleIds: over.map(Number).filter((id) => sessionIds.has(id)) });
    over.forEach((id) => delete allowances[id]);
    await ext.storage.local.set({ allowances });
  }
  await MigaRules.scheduleAllowanceEnd(allowances);
}

async function start() {
  await ext.storage.local.set({ refreshedAt: Date.now() });
  await MigaHost.refresh().catch(() => null);
  await checkOpenTabs();
  await endAllowances();
}

ext.runtime.onStartup.addListener(() => { start(); });
ext.runtime.onInstalled.addListener(() => { start(); });
ext.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === "allowances") endAllowances().catch(() => {});
});

ext.webNavigation.onBeforeNavigate.addListener((details) => {
  if (details.frameId === 0 && /^https?:/i.test(details.url)) refreshIfOld().catch(() => {});
});
ext.webNavigation.onHistoryStateUpdated.addListener((details) => {
  if (details.frameId === 0) pauseIfProtected(details.tabId, details.url).catch(() => {});
});
// Any page the tab goes to ends a visit it is not on, MIGA's own pages too:
// a tab that left for the focus page comes back to the site through a pause.
ext.webNavigation.onCommitted.addListener((details) => {
  if (details.frameId === 0) endVisit(details.tabId, details.url).catch(() => {});
});
ext.tabs.onRemoved.addListener((tabId) => { endVisit(tabId, null).catch(() => {}); });

// The pause page asks for the rules through here when it has none cached.
ext.runtime.onMessage.addListener((message, sender, reply) => {
  if (message?.type !== "refresh") return false;
  MigaHost.refresh().then((sites) => reply(sites), () => reply(null));
  return true;
});
