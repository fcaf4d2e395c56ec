import Foundation
import Testing
@testable import MIGACore

/// A typed line is compared by grapheme clusters built from the keys as
/// they come: a keyboard or an input method sends one code point at a time
/// (a letter, then its vowel sign or accent), and each must be taken on the
/// way to the character it builds, in any script.
@Suite struct TypedLineGraphemeTests {
    /// Types `text` a code point at a time, as keys arrive; the prefix of
    /// what was taken where a key was refused, or the whole of it.
    func typedByCodePoint(_ text: String, toward target: String) -> (typed: String, refused: Bool) {
        var typed = ""
        for scalar in text.unicodeScalars {
            let candidate = typed + String(Character(scalar))
            guard TypedLine.isOnTheWay(candidate, to: target) else { return (typed, true) }
            typed = candidate
        }
        return (typed, false)
    }

    func typesWhole(_ line: String, keys: String? = nil) -> Bool {
        let result = typedByCodePoint(keys ?? line, toward: line)
        return !result.refused && result.typed == line
    }

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

@Suite struct TypedLineSupplyTests {
    @Test func where_only_ascii_is_typed_a_quote_with_accents_offers_no_line() {
        let accented = [Quote(id: "x", text: "Été à Noël, très doux.", tags: [])]
        #expect(TypedLine.offersAnyLine(own: [], quotes: accented, asciiOnly: false))
        #expect(!TypedLine.offersAnyLine(own: [], quotes: accented, asciiOnly: true))
    }
}
