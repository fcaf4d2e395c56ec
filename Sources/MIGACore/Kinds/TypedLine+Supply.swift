extension TypedLine {
    /// Whether a typed pause could ever ask for a line: one of the person's
    /// own lines fits, or a sentence of one of `quotes` does. Stops at the
    /// first quote that gives one, so the usual answer costs a quote or two.
    public static func offersAnyLine(own: [String], quotes: some Sequence<Quote>, asciiOnly: Bool) -> Bool {
        // Without a sentence of its own, a quote leaves only the person's lines to choose from.
        var generator = SeededGenerator(seed: 0)
        if choose(quote: Quote(id: "", text: "", tags: []), own: own, asciiOnly: asciiOnly, using: &generator) != nil { return true }
        return quotes.contains { !sentences(of: $0.text, asciiOnly: asciiOnly).isEmpty }
    }
}
