"use strict";
// The host's rules, applied as they are given: MIGA (Sources/MIGACore/Sites,
// SitePattern) decides which addresses a site covers and makes each rule the
// browser installs; nothing here derives a rule of its own. Shared by the
// background and the pause page (loaded before them in both browsers).

const ext = globalThis.browser ?? globalThis.chrome;

const MigaRules = (() => {
  // Chromium takes at most 1000 regular-expression rules; a site has at most two redirects.
  const MOST_SITES = 450;
  // A one-time allow outranks every redirect a site can have.
  const ONCE_PRIORITY = 10_000_000;
  const DOMAIN = /^[a-z0-9-]+(\.[a-z0-9-]+)*$/;
  const compiled = new Map();
  // Whether the browser lets a listener hold a request until it has decided
  // (Firefox): the background then decides each visit itself, and installs
  // no redirect (background.js).
  const holdsRequests = Boolean(ext.runtime.getBrowserInfo && ext.webRequest?.onBeforeRequest);

  const isText = (value, longest) => typeof value === "string" && value.length > 0 && value.length <= longest;
  const isPriority = (value) => Number.isInteger(value) && value > 0 && value < ONCE_PRIORITY;

  function regex(pattern) {
    if (!compiled.has(pattern)) compiled.set(pattern, new RegExp(pattern, "i"));
    return compiled.get(pattern);
  }

  function compiles(pattern) {
    try { regex(pattern); return true; } catch (error) { return false; }
  }

  // The host's rules answer, each site kept only as far as it has the expected shape.
  function sitesFrom(answer) {
    if (!answer || answer.type !== "rules" || !Array.isArray(answer.sites)) return null;
    const sites = [];
    for (const item of answer.sites.slice(0, MOST_SITES)) {
      if (!item || !isText(item.site, 600) || !isText(item.program, 610) || !isText(item.pattern, 64_000) || !compiles(item.pattern)) continue;
      const domains = item.domains;
      if (!Array.isArray(domains) || !domains.length || !domains.every((domain) => isText(domain, 253) && DOMAIN.test(domain))) continue;
      if (!Array.isArray(item.filters) || !item.filters.length || !item.filters.every((filter) => isText(filter, 64_000))) continue;
      if (!isText(item.allowFilter, 64_000)) continue;
      if (!isPriority(item.redirectPriority) || !isPriority(item.allowPriority) || !isText(item.host, 253) || !DOMAIN.test(item.host)) continue;
      const pause = Number.isInteger(item.pause) && item.pause > 0 ? Math.min(item.pause, 3600) : null;
      sites.push({ site: item.site, program: item.program, host: item.host, pattern: item.pattern, domains: domains.slice(0, 4),
                   filters: item.filters.slice(0, 2), allowFilter: item.allowFilter, redirectPriority: item.redirectPriority, allowPriority: item.allowPriority, pause });
    }
    return sites;
  }

  // Of the sites whose pattern matches `url`, the one its redirect says:
  // the highest priority, which MIGA gives the most particular site.
  function covering(url, sites) {
    if (typeof url !== "string" || !/^https?:/i.test(url)) return null;
    let best = null;
    for (const site of sites) {
      if (regex(site.pattern).test(url) && (!best || site.redirectPriority > best.redirectPriority)) best = site;
    }
    return best;
  }

  // An extension page's address. Chromium's, at the extension's own ID:
  // the pause page is reachable only at a per-session address
  // (`use_dynamic_url`), and Chromium sends a redirect to the fixed one
  // there, while a redirect kept from an earlier session to its own
  // per-session address would fail. Firefox's address is its own per profile.
  function pageURL(path) {
    return ext.runtime.getBrowserInfo ? ext.runtime.getURL(path) : `chrome-extension://${ext.runtime.id}/${path}`;
  }

  // The pause page for an address: the address whole, in the fragment.
  function pauseURL(url) {
    return pageURL("pause.html") + "#" + url;
  }

  // What a site's rules catch, as a rule's condition.
  function condition(site, filter) {
    return { requestDomains: site.domains, regexFilter: filter, isUrlFilterCaseSensitive: false, resourceTypes: ["main_frame"] };
  }

  // The redirects, one for each of a site's filters; ids 1…; none where the background holds requests.
  async function replaceRedirects(sites) {
    const old = await ext.declarativeNetRequest.getDynamicRules();
    const rules = holdsRequests ? [] : sites.flatMap((site) => site.filters.map((filter) => ({
      priority: site.redirectPriority,
      action: { type: "redirect", redirect: { regexSubstitution: pageURL("pause.html") + "#\\0" } },
      condition: condition(site, filter),
    }))).map((rule, index) => ({ id: index + 1, ...rule }));
    const removeRuleIds = old.map((rule) => rule.id);
    try {
      await ext.declarativeNetRequest.updateDynamicRules({ removeRuleIds, addRules: rules });
      return [];
    } catch (error) {
      // One rule the browser refuses would take every other with it: each on its own.
      await ext.declarativeNetRequest.updateDynamicRules({ removeRuleIds });
      const refused = [];
      for (const rule of rules) {
        await ext.declarativeNetRequest.updateDynamicRules({ addRules: [rule] }).catch(() => refused.push(rule.condition.regexFilter));
      }
      return refused;
    }
  }

  // The allow rules change one change at a time, in the background.
  let chain = Promise.resolve();
  const inTurn = (work) => (chain = chain.then(work, work));

  async function nextSessionRuleIds(count) {
    const rules = await ext.declarativeNetRequest.getSessionRules();
    const highest = rules.reduce((most, rule) => Math.max(most, rule.id), 0);
    return Array.from({ length: count }, (_, index) => highest + 1 + index);
  }

  // The allowances on now, by their rules' first id: {site, rules, tabId?, until?, once?}.
  async function allowances() {
    const { allowances = {} } = await ext.storage.session.get("allowances");
    return allowances;
  }

  async function keepAllowances(allowances) {
    await ext.storage.session.set({ allowances });
    await scheduleAllowanceEnd(allowances);
  }

  // The allowances' own ids, where no rule is installed for them (Firefox): above any rule's.
  let ownId = ONCE_PRIORITY;

  // An allow rule for the site above its redirects, on its path as written
  // alone (`allowFilter`): in the tab named, or in every tab until `until`
  // (the host's word, milliseconds since 1970). Where the background holds
  // requests (Firefox) the allowance is kept, and no rule is needed.
  async function allow(site, { tabId = null, until = null }) {
    const [id] = holdsRequests ? [++ownId] : await nextSessionRuleIds(1);
    if (!holdsRequests) {
      const rule = { id, priority: site.allowPriority, action: { type: "allow" }, condition: condition(site, site.allowFilter) };
      if (tabId !== null) rule.condition.tabIds = [tabId];
      await ext.declarativeNetRequest.updateSessionRules({ addRules: [rule] });
    }
    const kept = await allowances();
    kept[id] = { site: site.site, rules: holdsRequests ? [] : [id], tabId, until };
    await keepAllowances(kept);
  }

  // An address a redirect caught that opens now (no site covers it, since
  // the rules catch more than a site to stay small; or an unusual spelling
  // of a site let through): let through once, in its tab. A rule's filter
  // has wildcards (`*`, `^`) and anchors (`|`) of its own: the address is
  // matched up to the first of them, from its start.
  async function allowOnce(tabId, url) {
    if (holdsRequests) return;
    const [id] = await nextSessionRuleIds(1);
    const filter = "|" + url.split(/[*^|]/)[0];
    await ext.declarativeNetRequest.updateSessionRules({ addRules: [{
      id, priority: ONCE_PRIORITY, action: { type: "allow" },
      condition: { urlFilter: filter, isUrlFilterCaseSensitive: true, resourceTypes: ["main_frame"], tabIds: [tabId] },
    }] });
    const kept = await allowances();
    kept[id] = { site: null, rules: [id], tabId, until: Date.now() + 60_000, once: url };
    await keepAllowances(kept);
  }

  async function removeAllowances(ids) {
    if (!ids.length) return scheduleAllowanceEnd(await allowances());
    const kept = await allowances();
    const rules = ids.flatMap((id) => kept[id]?.rules ?? []);
    ids.forEach((id) => delete kept[id]);
    if (rules.length) await ext.declarativeNetRequest.updateSessionRules({ removeRuleIds: rules });
    await keepAllowances(kept);
  }

  // One alarm, at the soonest end of an allowance; none while none is on,
  // so that nothing wakes the browser for MIGA when no pause is.
  async function scheduleAllowanceEnd(kept) {
    const ends = Object.values(kept).map((entry) => entry.until).filter(Number.isFinite);
    if (ends.length) await ext.alarms.create("allowances", { when: Math.max(Date.now() + 1000, Math.min(...ends)) });
    else await ext.alarms.clear("allowances");
  }

  // Whether `site` is let through in this tab now (`tabId`), or anywhere
  // (`tabId` undefined): a visit there, or an allowance in every tab.
  function isAllowed(kept, tabId, site) {
    const now = Date.now();
    return Object.values(kept).some((entry) => entry.site === site.site
      && ((tabId === undefined && entry.tabId !== null) || entry.tabId === tabId
          || (entry.tabId === null && Number.isFinite(entry.until) && entry.until > now)));
  }

  // What a navigation of `tabId` to `url` meets: "pause" (its site, not let through) or "open".
  async function verdict(url, tabId, sites) {
    const site = covering(url, sites);
    if (!site) return { open: true, site: null };
    return { open: isAllowed(await allowances(), tabId, site), site };
  }

  return {
    sitesFrom, covering, pageURL, pauseURL, replaceRedirects, allow, allowOnce, allowances, removeAllowances,
    scheduleAllowanceEnd, verdict, inTurn, holdsRequests, isAllowed,
  };
})();
