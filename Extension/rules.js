"use strict";
// The one place that knows which addresses a protected site covers and how
// the browser is told: MIGA's `Site` (Sources/MIGACore/Sites/Site.swift) as a
// declarativeNetRequest regular expression. Shared by the background and the
// pause page (loaded before them in both browsers).

const ext = globalThis.browser ?? globalThis.chrome;

const MigaRules = (() => {
  // Redirects have ids 1…; Chromium takes at most 1000 regular-expression rules.
  const LONGEST_LIST = 1000;
  // A site as the host names it: a host of letters, digits, hyphens and dots,
  // then an optional path prefix of what an address's path holds.
  const SITE_SHAPE = /^[a-z0-9-]+(\.[a-z0-9-]+)+(\/[\x21-\x7e]{0,256})?$/;

  const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

  function split(name) {
    const slash = name.indexOf("/");
    return slash < 0 ? { host: name, path: "" } : { host: name.slice(0, slash), path: name.slice(slash) };
  }

  // The whole address (the redirect substitutes all of it): http or https,
  // any user part, the host or one under it, written with its final dot or
  // without (`youtube.com.` is youtube.com, as for Site), any port, then the
  // path prefix ending at a segment boundary (`/r/all` covers `/r/all/x`,
  // not `/r/allah`).
  function regexFilter(name) {
    const { host, path } = split(name);
    return "^https?://([^/?#@]*@)?([^/?#@]*\\.)?" + escapeRegex(host) + "\\.?(:[0-9]+)?" + escapeRegex(path) + "([/?#].*)?$";
  }

  // How particular a site is, as `covering` orders them: the longer host,
  // then the longer path (a path is at most 257 characters).
  function particularity(name) {
    const { host, path } = split(name);
    return host.length * 300 + path.length;
  }

  // A site's allow rule outranks its own redirect, and a more particular
  // site's redirect outranks a broader site's allow rule: a Proceed on
  // reddit.com is no Proceed on reddit.com/r/all.
  const redirectPriority = (name) => 2 * particularity(name) + 1;
  const allowPriority = (name) => 2 * particularity(name) + 2;

  function covers(name, url) {
    return new RegExp(regexFilter(name), "i").test(url);
  }

  // Of the sites that cover `url`, the most particular: the longest host, then the longest path.
  function covering(url, sites) {
    let best = null;
    for (const site of sites) {
      if (!covers(site.site, url)) continue;
      const a = split(site.site), b = best && split(best.site);
      if (!best || a.host.length > b.host.length || (a.host.length === b.host.length && a.path.length > b.path.length)) best = site;
    }
    return best;
  }

  // The host's rules answer, kept only as far as it has the expected shape.
  function sitesFrom(answer) {
    if (!answer || answer.type !== "rules" || !Array.isArray(answer.sites)) return null;
    const sites = [];
    for (const item of answer.sites) {
      if (!item || typeof item.site !== "string" || !SITE_SHAPE.test(item.site)) continue;
      const seconds = Number.isFinite(item.allowSeconds) && item.allowSeconds > 0 ? Math.min(item.allowSeconds, 24 * 3600) : 0;
      const pause = Number.isFinite(item.pause) && item.pause > 0 ? Math.min(item.pause, 3600) : null;
      sites.push({ site: item.site, program: "site:" + item.site, allowSeconds: seconds, pause });
      if (sites.length === LONGEST_LIST) break;
    }
    return sites;
  }

  function pageURL(path) {
    return ext.runtime.getURL(path);
  }

  // The pause page for an address: the address whole, in the fragment.
  function pauseURL(url) {
    return pageURL("pause.html") + "#" + url;
  }

  async function replaceRedirects(sites) {
    const old = await ext.declarativeNetRequest.getDynamicRules();
    const rules = sites.map((site, index) => ({
      id: index + 1,
      priority: redirectPriority(site.site),
      action: { type: "redirect", redirect: { regexSubstitution: pageURL("pause.html") + "#\\0" } },
      condition: { regexFilter: regexFilter(site.site), isUrlFilterCaseSensitive: false, resourceTypes: ["main_frame"] },
    }));
    await ext.declarativeNetRequest.updateDynamicRules({ removeRuleIds: old.map((rule) => rule.id), addRules: rules });
  }

  async function nextSessionRuleId() {
    const rules = await ext.declarativeNetRequest.getSessionRules();
    return rules.reduce((highest, rule) => Math.max(highest, rule.id), 0) + 1;
  }

  // An allow rule for the site above its redirect: in the tabs named, or in every tab.
  async function addAllowRule(siteName, tabIds) {
    const id = await nextSessionRuleId();
    const condition = { regexFilter: regexFilter(siteName), isUrlFilterCaseSensitive: false, resourceTypes: ["main_frame"] };
    if (tabIds) condition.tabIds = tabIds;
    await ext.declarativeNetRequest.updateSessionRules({
      addRules: [{ id, priority: allowPriority(siteName), action: { type: "allow" }, condition }],
    });
    return id;
  }

  // Lets the site through for one tab (its visit).
  function allowTab(tabId, siteName) {
    return addAllowRule(siteName, [tabId]);
  }

  // Lets the site through for every tab until `until` (milliseconds); the background ends it.
  async function allowEverywhere(siteName, until) {
    const id = await addAllowRule(siteName, null);
    const { allowances = {} } = await ext.storage.local.get("allowances");
    allowances[id] = until;
    await ext.storage.local.set({ allowances });
    await scheduleAllowanceEnd(allowances);
    return id;
  }

  // One alarm, at the soonest end of an allowance; none while no allowance
  // is on, so that nothing wakes the browser for MIGA when no pause is.
  async function scheduleAllowanceEnd(allowances) {
    const ends = Object.values(allowances).filter(Number.isFinite);
    if (ends.length) await ext.alarms.create("allowances", { when: Math.min(...ends) });
    else await ext.alarms.clear("allowances");
  }

  // Whether an allow rule of `siteName`, the site covering the address, lets it through in this tab now.
  async function allowed(tabId, siteName) {
    const filter = regexFilter(siteName);
    const rules = await ext.declarativeNetRequest.getSessionRules();
    return rules.some((rule) => rule.action.type === "allow"
      && (!rule.condition.tabIds || rule.condition.tabIds.includes(tabId))
      && rule.condition.regexFilter === filter);
  }

  return { regexFilter, covers, covering, sitesFrom, pageURL, pauseURL, replaceRedirects, allowTab, allowEverywhere, scheduleAllowanceEnd, allowed };
})();
