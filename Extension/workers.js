"use strict";
// A protected site's service workers and caches, taken away whenever one
// could answer a visit without the network (and so without Chromium's
// redirects, which see only what goes to the network): when a site becomes
// protected, when a visit or an allowance ends, and when a visit one
// answered was met on commit; never while another tab's visit or an
// allowance still uses them, and never as a navigation begins (one whose
// worker is taken away mid-answer hangs). The site itself, its cookies and
// logins, stay as they are.

const MigaWorkers = (() => {
  const MOST_ORIGINS = 24;
  const firefox = Boolean(ext.runtime.getBrowserInfo);

  const originOf = (url) => {
    try { return new URL(url).origin; } catch (error) { return null; }
  };

  // The origins a site's workers may live at: those its visits were seen
  // at, and its host and www. under http and https.
  async function originsOf(site) {
    const { origins = {} } = await ext.storage.local.get("origins");
    const guessed = ["https://", "http://"].flatMap((scheme) => [scheme + site.host, scheme + "www." + site.host]);
    return [...new Set([...(origins[site.site] ?? []), ...guessed])];
  }

  // Keeps the origin of a visit to a protected site, for `removeFor`.
  async function noteVisit(url, sites) {
    const site = MigaRules.covering(url, sites);
    const origin = originOf(url);
    if (!site || !origin) return;
    const { origins = {} } = await ext.storage.local.get("origins");
    const known = origins[site.site] ?? [];
    if (known.includes(origin)) return;
    origins[site.site] = [origin, ...known].slice(0, MOST_ORIGINS);
    await ext.storage.local.set({ origins });
  }

  // Removes the workers and caches of `sites` (and of the origin of `url`, when given).
  async function removeFor(sites, url) {
    if (!sites.length || !ext.browsingData) return;
    if (firefox) {
      // Firefox takes hostnames, each with its subdomains.
      const hostnames = [...new Set(sites.map((site) => site.host))];
      await ext.browsingData.remove({ hostnames }, { serviceWorkers: true }).catch(() => {});
      return;
    }
    const origins = new Set((await Promise.all(sites.map(originsOf))).flat());
    const extra = url && originOf(url);
    if (extra) origins.add(extra);
    await ext.browsingData.remove({ origins: [...origins] }, { serviceWorkers: true, cacheStorage: true }).catch(() => {});
  }

  // The same, for the sites no tab's visit or allowance lets through now.
  async function removeUnlessInUse(sites, url) {
    const kept = await MigaRules.allowances();
    await removeFor(sites.filter((site) => !MigaRules.isAllowed(kept, undefined, site)), url);
  }

  return { noteVisit, removeFor, removeUnlessInUse };
})();
