import Foundation
import Testing
@testable import MIGACore

/// Types `text` a code point at a time, as keys arrive; the prefix of
/// what was taken where a key was refused, or the whole of it.
private func typedByCodePoint(_ text: String, toward target: String) -> (typed: String, refused: Bool) {
    var typed = ""
    for scalar in text.unicodeScalars {
        let candidate = typed + String(Character(scalar))
        guard TypedLine.isOnTheWay(candidate, to: target) else { return (typed, true) }
        typed = candidate
    }
    return (typed, false)
}

private func typesWhole(_ line: String, keys: String? = nil) -> Bool {
    let result = typedByCodePoint(keys ?? line, toward: line)
    return !result.refused && TypedLine.isWhole(result.typed, of: line)
}

/// How many of the line's clusters show as typed after each code point
/// of `keys`: what the field's cursor does as they come.
private func progress(typing keys: String, toward line: String) -> [Int] {
    var typed = ""
    return keys.unicodeScalars.map { scalar in
        typed += String(Character(scalar))
        return TypedLine.clustersDone(typed, of: line)
    }
}

/// The cursor never goes back, never shows as typed a letter not yet typed
/// (letters counted without joiners, so `keys` and `line` must be composed
/// alike), and ends after the whole line.
private func progressesSteadily(_ keys: String, toward line: String) -> Bool {
    let isLetter = { (scalar: Unicode.Scalar) in scalar != "\u{200C}" && scalar != "\u{200D}" }
    let steps = progress(typing: keys, toward: line)
    var lettersTyped = 0
    for (scalar, done) in zip(keys.unicodeScalars, steps) {
        if isLetter(scalar) { lettersTyped += 1 }
        guard line.prefix(done).unicodeScalars.count(where: isLetter) <= lettersTyped else { return false }
    }
    return zip(steps, steps.dropFirst()).allSatisfy { $0 <= $1 } && steps.last == line.count
}

/// A typed line is compared by grapheme clusters built from the keys as
/// they come: a keyboard or an input method sends one code point at a time
/// (a letter, then its vowel sign or accent), and each must be taken on the
/// way to the character it builds, in any script.
@Suite struct TypedLineGraphemeTests {
    @Test func devanagari_comes_a_code_point_at_a_time() {
        let line = "मैं अपना समय खुद चुनता हूँ"
        #expect(typesWhole(line))
        #expect(TypedLine.clustersDone("म", of: line) == 0)
        #expect(TypedLine.clustersDone("मैं", of: line) == 1)
        // A wrong vowel sign on the right letter is a mistake.
        #expect(!TypedLine.isOnTheWay("मो", to: line))
    }

    @Test func thai_vowel_and_tone_marks_join_the_letter_before_them() {
        let line = "ฉันเลือกเวลาของฉันเอง"
        #expect(typesWhole(line))
        #expect(!TypedLine.isOnTheWay("ฉิ", to: line))
    }

    @Test func korean_syllables_and_jamo_an_input_method_composes() {
        let line = "나는 내 시간을 고른다"
        // Committed a syllable at a time (precomposed, as most input methods do).
        #expect(typesWhole(line))
        // Or as conjoining jamo, key by key, that make the same syllables.
        let jamo = line.decomposedStringWithCanonicalMapping
        #expect(jamo.unicodeScalars.count > line.unicodeScalars.count)
        #expect(typesWhole(line, keys: jamo))
        #expect(!TypedLine.isOnTheWay("\u{1102}\u{1165}", to: line)) // 너, not 나
    }

    @Test func french_accents_precomposed_or_as_a_combining_key() {
        let line = "Je choisis ma soirée, à l'été."
        #expect(typesWhole(line))
        // A combining accent typed after its letter: two keys, one "é".
        #expect(typesWhole(line, keys: "Je choisis ma soire\u{0301}e, a\u{0300} l'e\u{0301}te\u{0301}."))
        // The letter alone is on its way; another letter after it is not.
        #expect(TypedLine.isOnTheWay("Je choisis ma soire", to: line))
        #expect(!TypedLine.isOnTheWay("Je choisis ma soiree", to: line))
        // A line of the quote with accents is asked for on a UTF-8 terminal only.
        var generator = SeededGenerator(seed: 1)
        let quote = Quote(id: "x", text: "Été à Noël, très doux.", tags: [])
        #expect(TypedLine.choose(quote: quote, own: [], using: &generator) == "Été à Noël, très doux.")
        #expect(TypedLine.choose(quote: quote, own: [], asciiOnly: true, using: &generator) == nil)
    }

    @Test func own_lines_in_any_script_are_asked_for_but_never_symbols() {
        var generator = SeededGenerator(seed: 1)
        let quote = Quote(id: "q", text: "Short.", tags: [])
        for line in ["मैं अपना समय खुद चुनता हूँ", "ฉันเลือกเวลาของฉันเอง", "나는 내 시간을 고른다"] {
            #expect(TypedLine.choose(quote: quote, own: [line], using: &generator) == line)
        }
        #expect(TypedLine.choose(quote: quote, own: ["Evening is mine ★ tonight"], using: &generator) == nil)
    }
}

/// The zero-width non-joiner and joiner (U+200C, U+200D) are spelling in
/// Persian, Urdu, Hindi and Malayalam: a line with them is asked for, and
/// typed with them or without (a keyboard layout or an input method that
/// has no key for them), compared as if they were not there.
@Suite struct TypedLineJoinerTests {
    let quote = Quote(id: "q", text: "Short.", tags: [])
    /// "I want to read a book today": "می‌خواهم" has a non-joiner after its prefix "می".
    let persian = "من می\u{200C}خواهم امروز کتاب بخوانم."
    /// "I trust my ability": a joiner asks for the half form of क in क्‍ष.
    let hindiHalfForm = "मैं अपनी क्\u{200D}षमता पर भरोसा करता हूँ।"
    /// The same with a non-joiner, which asks for a visible virama: क्‌ and ष
    /// are two clusters here, and one, क्ष, without it.
    let hindiVirama = "मैं अपनी क्\u{200C}षमता पर भरोसा करता हूँ।"
    /// "He went home today", in the older spelling of its chillu letters: ന്‍ and ല്‍ with a joiner.
    let malayalam = "അവന്\u{200D} ഇന്ന് വീട്ടില്\u{200D} പോയി."

    func withoutJoiners(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\u{200C}" && $0 != "\u{200D}" }))
    }

    @Test func a_line_with_a_joiner_or_non_joiner_is_offered() {
        var generator = SeededGenerator(seed: 1)
        for line in [persian, hindiHalfForm, hindiVirama, malayalam] {
            #expect(line.unicodeScalars.contains { $0 == "\u{200C}" || $0 == "\u{200D}" })
            #expect(TypedLine.choose(quote: quote, own: [line], using: &generator) == line, "\(line)")
        }
        // A sentence of a quote, too.
        #expect(TypedLine.sentences(of: "Be still. " + persian) == [persian])
        // Not where only ASCII is typed.
        #expect(TypedLine.choose(quote: quote, own: [persian], asciiOnly: true, using: &generator) == nil)
    }

    @Test func the_line_is_typed_a_code_point_at_a_time_with_its_joiners_or_without_them() {
        for line in [persian, hindiHalfForm, hindiVirama, malayalam] {
            #expect(typesWhole(line), "\(line)")
            #expect(typesWhole(line, keys: withoutJoiners(line)), "\(line)")
            #expect(progressesSteadily(line, toward: line), "\(line)")
            #expect(progressesSteadily(withoutJoiners(line), toward: line), "\(line)")
        }
        // Typed without its non-joiner, the prefix "می" is whole with the cluster that holds it.
        #expect(TypedLine.clustersDone("من می", of: persian) == 5)
        #expect(TypedLine.isOnTheWay("من میخ", to: persian))
        // A joiner where the line has none does no harm; a wrong letter is still a mistake.
        #expect(TypedLine.isOnTheWay("من\u{200C} ", to: persian))
        #expect(!TypedLine.isOnTheWay("من مو", to: persian))
        #expect(!TypedLine.isWhole(String(withoutJoiners(persian).dropLast()), of: persian))
    }

    @Test func format_characters_that_could_hide_or_turn_text_around_are_never_asked_for() {
        var generator = SeededGenerator(seed: 1)
        let hidden = [
            "\u{202E}", "\u{202A}", "\u{2066}", "\u{2069}", "\u{200E}", "\u{200F}", "\u{061C}", // bidi controls
            "\u{200B}", "\u{2060}", "\u{FEFF}", "\u{00AD}", "\u{E0041}", "\u{180E}", // invisible, or hidden text
        ]
        for scalar in hidden {
            let line = "من می" + scalar + "خواهم امروز کتاب بخوانم."
            #expect(TypedLine.choose(quote: quote, own: [line], using: &generator) == nil, "\(line.unicodeScalars.map(\.value))")
        }
    }
}

@Suite struct TypedLineSupplyTests {
    @Test func where_only_ascii_is_typed_a_quote_with_accents_offers_no_line() {
        let accented = [Quote(id: "x", text: "Été à Noël, très doux.", tags: [])]
        #expect(TypedLine.offersAnyLine(own: [], quotes: accented, asciiOnly: false))
        #expect(!TypedLine.offersAnyLine(own: [], quotes: accented, asciiOnly: true))
    }
}
