"use strict";
// A protected site's service workers and caches, taken away whenever one
// could answer a visit without the network (and so without the redirects,
// which see only what goes to the network): when a site becomes protected,
// when a visit or an allowance ends, when a visit is met after it was
// answered, and after each page of a visit let through only in its own tab.
// The site itself, its cookies and logins, stay as they are.

const MigaWorkers = (() => {
  // How long after a page of an allowed visit has loaded its workers go: it registers them as it loads.
  const AFTER_PAGE_MS = 3000;
  const MOST_ORIGINS = 24;
  const firefox = Boolean(ext.runtime.getBrowserInfo);

  const originOf = (url) => {
    try { return new URL(url).origin; } catch (error) { return null; }
  };

  // The origins a site's workers may live at: those its visits were seen
  // at, and its host and www. under http and https.
  async function originsOf(site) {
    const { origins = {} } = await ext.storage.local.get("origins");
    const guessed = site.domains.flatMap((domain) => ["https://", "http://"].flatMap((scheme) => [scheme + domain, scheme + "www." + domain]));
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
      const hostnames = [...new Set(sites.flatMap((site) => site.domains))];
      await ext.browsingData.remove({ hostnames }, { serviceWorkers: true }).catch(() => {});
      return;
    }
    const origins = new Set((await Promise.all(sites.map(originsOf))).flat());
    const extra = url && originOf(url);
    if (extra) origins.add(extra);
    await ext.browsingData.remove({ origins: [...origins] }, { serviceWorkers: true, cacheStorage: true }).catch(() => {});
  }

  // After a page of a visit let through only in its tab: the site's workers
  // go again, so that the visit's page does not answer the next visit elsewhere.
  async function afterAllowedPage(url, sites) {
    const site = MigaRules.covering(url, sites);
    if (!site) return;
    const everywhere = Object.values(await MigaRules.allowances())
      .some((entry) => entry.site === site.site && entry.tabId === null && entry.until > Date.now());
    if (!everywhere) setTimeout(() => { removeFor([site], url); }, AFTER_PAGE_MS);
  }

  return { noteVisit, removeFor, afterAllowedPage };
})();
