"use strict";
// Quotes for a pause without the host: the host's last ones when it gave
// any, else this small bundled set (old, public-domain words).

const MigaQuotes = (() => {
  const BUNDLED = [
    { id: "bundled-seneca", verses: ["It is not that we have a short time to live,", "but that we waste a lot of it."], source: "Seneca" },
    { id: "bundled-aurelius", verses: ["Very little is needed to make a happy life."], source: "Marcus Aurelius" },
    { id: "bundled-thoreau", verses: ["It is not enough to be busy.", "The question is: what are we busy about?"], source: "Henry David Thoreau" },
    { id: "bundled-pascal", verses: ["All of humanity's problems stem from", "man's inability to sit quietly in a room alone."], source: "Blaise Pascal" },
    { id: "bundled-laozi", verses: ["Nature does not hurry,", "yet everything is accomplished."], source: "Laozi" },
    { id: "bundled-epictetus", verses: ["First say to yourself what you would be;", "and then do what you have to do."], source: "Epictetus" },
  ];
  const MOST = 200;

  const text = (value, longest) => (typeof value === "string" ? value.slice(0, longest) : null);

  // The host's quotes, kept only as far as they have a quote's shape.
  function from(list) {
    if (!Array.isArray(list)) return [];
    const quotes = [];
    for (const item of list.slice(0, MOST)) {
      const verses = Array.isArray(item?.verses) ? item.verses.map((verse) => text(verse, 400)).filter(Boolean).slice(0, 12) : [];
      if (!verses.length) continue;
      quotes.push({ id: text(item.id, 80) ?? "host", verses, source: text(item.source, 200) });
    }
    return quotes;
  }

  function pick(cached, avoiding) {
    const pool = cached && cached.length ? cached : BUNDLED;
    const others = pool.filter((quote) => quote.id !== avoiding);
    const choices = others.length ? others : pool;
    return choices[Math.floor(Math.random() * choices.length)];
  }

  return { BUNDLED, from, pick };
})();
