import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGAConfig
@testable import MIGADesktop
@testable import MIGATestSupport

/// Seeded random inputs for every parser of text that people or other programs
/// write: `config.toml`, quote files, fortune(6) files, desktop entries (and
/// their Exec lines), and focus hours.
///
/// Each input has its own generator, seeded from the test's seed and the
/// input's index, so a failure names both and `Fuzz(seed:index:)` draws that
/// input again on its own. Surviving the inputs is one property; the others
/// are stated per parser: problems are short, one-line and point inside the
/// file; valid examples read back as written; the same input gives the same
/// result; readers never write.
@Suite struct ParserFuzzTests {
    // MARK: - config.toml

    @Test func any_config_text_gives_one_line_problems_inside_the_file_and_only_allowed_values() {
        let seed: UInt64 = 0xC0F1_0001
        var quotedBreaks = 0
        fuzz(4_500, seed: seed, "config inputs (random bytes, TOML token soup, mutations of valid files; \(quotedBreaks) messages quoting a line break)") { fuzz in
            let text = fuzz.configText()
            let loaded = ConfigLoader.parse(text, file: "config.toml")
            checkConfig(loaded, of: text, file: "config.toml", fuzz.label(text), quotedBreaks: &quotedBreaks)
            // The same text must give the same result: nothing may depend on
            // dictionary order, addresses or the clock.
            let again = ConfigLoader.parse(text, file: "config.toml")
            #expect(again.config == loaded.config && again.problems == loaded.problems
                    && again.syntaxError == loaded.syntaxError, "not deterministic: \(fuzz.label(text))")
        }
    }

    @Test func reading_a_config_file_of_any_bytes_never_changes_it_and_matches_reading_its_text() throws {
        let seed: UInt64 = 0xC0F1_0002
        let folder = TemporaryDirectory()
        let path = folder.path + "/config.toml"
        var quotedBreaks = 0
        try fuzz(300, seed: seed, "config files of raw bytes (\(quotedBreaks) messages quoting a line break)") { fuzz in
            // Bytes, not text: invalid UTF-8 and NUL can only reach the loader through a file.
            let bytes = fuzz.configBytes()
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            let before = try FileSnapshot(path)
            let loaded = ConfigLoader.load(from: path)
            let after = try FileSnapshot(path)
            #expect(before == after, "the loader changed the file: \(fuzz.label(bytes))")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["config.toml"],
                    "the loader left a file behind: \(fuzz.label(bytes))")
            // A file is its text decoded leniently (bad bytes become U+FFFD), nothing more.
            let parsed = ConfigLoader.parse(text, file: path)
            #expect(loaded.config == parsed.config && loaded.problems == parsed.problems,
                    "the file reads differently from its text: \(fuzz.label(bytes))")
            checkConfig(loaded, of: text, file: path, fuzz.label(bytes), quotedBreaks: &quotedBreaks)
        }
    }

    @Test func a_config_written_with_the_projects_toml_literals_reads_back_as_the_same_values() throws {
        let seed: UInt64 = 0xC0F1_0003
        try fuzz(1_000, seed: seed, "valid configs written and read back") { fuzz in
            let config = try fuzz.validConfig()
            let text = fuzz.render(config)
            let summaryText = ConfigSummary.text(config, path: "config.toml")
            let loaded = ConfigLoader.parse(text, file: "config.toml")
            #expect(loaded.problems.isEmpty, "\(loaded.problems): \(fuzz.label(text))")
            #expect(loaded.config == config, "read back differently: \(fuzz.label(text))")
            // The summary of `miga config show` is TOML too, and must read back
            // to the same settings in effect.
            let summary = ConfigLoader.parse(summaryText, file: "summary")
            #expect(summary.problems.isEmpty, "summary: \(summary.problems): \(fuzz.label(text))")
            #expect(Effective(summary.config) == Effective(config), "the summary reads back differently: \(fuzz.label(text))")
        }
    }

    func checkConfig(_ loaded: LoadedConfig, of text: String, file: String, _ label: String, quotedBreaks: inout Int) {
        let lines = lineCount(text)
        for problem in loaded.problems {
            #expect(problem.file == file, "\(label)")
            // One line even when it quotes the input's own line break (shown as ⏎).
            checkMessage(problem.message, label, quotedBreaks: &quotedBreaks)
            if let line = problem.line {
                #expect((1...lines).contains(line), "line \(line) of \(lines): \(label)")
            }
            if let column = problem.column {
                #expect(column >= 1, "column \(column): \(label)")
            }
        }
        if let syntaxError = loaded.syntaxError {
            // A file that is not TOML is set aside whole: the defaults, and one problem.
            #expect(loaded.problems == [syntaxError], "\(label)")
            #expect(loaded.config == Config(), "a broken file still set something: \(label)")
            #expect(syntaxError.line != nil, "a syntax error without its line: \(label)")
        }
        #expect(holdsOnlyAllowedValues(loaded.config), "a refused value was kept: \(label)")
    }

    /// What the loader promises about any config it hands back, whatever the file said.
    func holdsOnlyAllowedValues(_ config: Config) -> Bool {
        Config.pauseRange.contains(config.pause) && config.programs.allSatisfy { command, settings in
            settings.command == command && !command.isEmpty && !command.contains("/")
                && settings.pause.map(Config.pauseRange.contains) ?? true
                && settings.allowMinutes.map { $0 > 0 && $0 <= ProgramSettings.allowRange.upperBound } ?? true
                && ProgramSettings.escalateRange.contains(settings.escalateStep)
                && ProgramSettings.escalateRange.contains(settings.escalateMax)
        }
    }

    // MARK: - Quote files

    @Test func any_quote_file_keeps_or_reports_every_line_and_keeps_only_well_formed_quotes() {
        let seed: UInt64 = 0x0007_0001
        fuzz(3_000, seed: seed, "quote file inputs (random bytes, field soup, mutations of the built-in bank)") { fuzz in
            let text = fuzz.quoteText()
            let label = fuzz.label(text)
            let parsed = QuoteBank.parse(text, file: "mine.txt")
            let again = QuoteBank.parse(text, file: "mine.txt")
            #expect(again.quotes == parsed.quotes && again.problems == parsed.problems, "not deterministic: \(label)")

            let lines = lineCount(text)
            for problem in parsed.problems {
                #expect(problem.file == "mine.txt", "\(label)")
                #expect((1...lines).contains(problem.line), "line \(problem.line) of \(lines): \(label)")
                #expect(isOneShortLine(problem.message), "message \(problem.message.debugDescription): \(label)")
            }
            // At most one problem a line, top to bottom.
            #expect(zip(parsed.problems, parsed.problems.dropFirst()).allSatisfy { $0.line < $1.line }, "\(label)")
            // "keeping every good line and reporting each bad one": no line vanishes.
            #expect(parsed.quotes.count + parsed.problems.count == contentLineCount(text), "a line vanished: \(label)")
            #expect(Set(parsed.quotes.map(\.id)).count == parsed.quotes.count, "an id twice: \(label)")
            for quote in parsed.quotes {
                #expect(isWellFormed(quote), "\(quote): \(label)")
                #expect(quote.file == "mine.txt", "\(label)")
            }
        }
    }

    @Test func any_quote_the_format_allows_is_written_by_the_library_and_read_back_the_same() {
        let seed: UInt64 = 0x0007_0002
        fuzz(1_200, seed: seed, "quote files written by the library and read back") { fuzz in
            let quotes = (0..<fuzz.int(1...6)).compactMap { number in fuzz.validQuote(number: number) }
            let text = quotes.map(QuoteLibrary.line).joined(separator: "\n") + (fuzz.chance(50) ? "\n" : "")
            let parsed = QuoteBank.parse(text, file: "mine.txt")
            #expect(parsed.problems.isEmpty, "\(parsed.problems): \(fuzz.label(text))")
            #expect(parsed.quotes == quotes, "read back differently: \(fuzz.label(text))")
        }
        // The built-in bank itself, written line by line, is a valid file too.
        let bank = QuoteBank.builtIn.quotes
        let parsed = QuoteBank.parse(bank.map(QuoteLibrary.line).joined(separator: "\n"), file: "quotes.txt")
        #expect(parsed.problems.isEmpty)
        #expect(parsed.quotes == bank)
    }

    @Test func a_quote_folder_of_any_bytes_keeps_the_built_in_bank_and_is_never_written() throws {
        let seed: UInt64 = 0x0007_0003
        let builtIn = QuoteBank.builtIn.quotes
        try fuzz(150, seed: seed, "quote folders of raw bytes") { fuzz in
            let folder = TemporaryDirectory()
            var files: [String: [UInt8]] = [:]
            for number in 0..<fuzz.int(1...3) {
                files[folder.path + "/file\(number).txt"] = fuzz.quoteBytes()
            }
            for (path, bytes) in files { #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes))) }
            let before = try files.keys.sorted().map(FileSnapshot.init)
            let label = fuzz.label(files.keys.sorted().map { files[$0]! })
            let library = QuoteLibrary(folder: folder.path)
            #expect(try files.keys.sorted().map(FileSnapshot.init) == before, "reading changed a file: \(label)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == files.count, "\(label)")
            // Built-in ids win over a file's that repeat them.
            #expect(builtIn.allSatisfy { library.bank[$0.id] == $0 }, "a built-in quote was replaced: \(label)")
            for problem in library.problems {
                let bytes = try #require(files[problem.file], "a problem in another file: \(label)")
                #expect((1...lineCount(bytes)).contains(problem.line), "line \(problem.line): \(label)")
                #expect(isOneShortLine(problem.message), "message \(problem.message.debugDescription): \(label)")
            }
        }
    }

    @Test func a_quote_added_by_the_person_reads_back_as_the_quote_returned() throws {
        let seed: UInt64 = 0x0007_0004
        let folder = TemporaryDirectory()
        try fuzz(120, seed: seed, "quotes added and read back") { fuzz in
            let text = fuzz.typedField()
            let tags = (0..<fuzz.int(0...3)).map { _ in fuzz.typedField(tag: true) }
            let source = fuzz.chance(50) ? fuzz.typedField() : nil
            let label = fuzz.label("text: \(text.debugDescription) tags: \(tags) source: \(source.debugDescription)")
            let added: Quote
            do {
                added = try QuoteLibrary(folder: folder.path).add(text: text, tags: tags, source: source)
            } catch let error as MigaError {
                #expect(isOneShortLine(error.message), "\(label)")
                return
            }
            let library = QuoteLibrary(folder: folder.path)
            #expect(library.problems.isEmpty, "\(library.problems): \(label)")
            #expect(library.bank[added.id] == added, "read back as \(String(describing: library.bank[added.id])): \(label)")
        }
    }

    // MARK: - fortune(6) files

    @Test func any_fortune_file_gives_its_entries_or_the_first_bad_line() throws {
        let seed: UInt64 = 0xF027_0001
        try fuzz(2_000, seed: seed, "fortune file inputs (random bytes, separators, invalid UTF-8, NUL)") { fuzz in
            let bytes = fuzz.fortuneBytes()
            let label = fuzz.label(bytes)
            let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            let firstBad = lines.firstIndex { $0.contains(0) || String(validating: $0, as: UTF8.self) == nil }
            do {
                let entries = try FortuneFile.parse(bytes, file: "wisdom")
                #expect(firstBad == nil, "line \(firstBad.map { $0 + 1 } ?? 0) is not text, yet it was read: \(label)")
                #expect(entries.count == fortuneChunksWithText(lines), "an entry vanished or appeared: \(label)")
                for entry in entries {
                    #expect(!entry.text.isEmpty && !entry.text.unicodeScalars.contains("\n"), "\(entry): \(label)")
                }
                #expect((try? FortuneFile.parse(bytes, file: "wisdom")) == entries, "not deterministic: \(label)")
            } catch let error as QuoteFileProblem {
                #expect(error.file == "wisdom", "\(label)")
                #expect(isOneShortLine(error.message), "message \(error.message.debugDescription): \(label)")
                if let firstBad {
                    // The first line that is not text is the one to name.
                    #expect(error.line == firstBad + 1, "named line \(error.line), not \(firstBad + 1): \(label)")
                } else {
                    #expect(fortuneChunksWithText(lines) == 0, "refused a file with entries (\(error)): \(label)")
                    #expect(error.line == lines.count, "\(label)")
                }
            }
        }
    }

    @Test func fortune_entries_written_as_a_fortune_file_read_back_with_their_sources() throws {
        let seed: UInt64 = 0xF027_0002
        fuzz(600, seed: seed, "fortune files written and read back") { fuzz in
            var expected: [FortuneFile.Entry] = []
            var chunks: [String] = []
            for _ in 0..<fuzz.int(1...5) {
                let lines = (0..<fuzz.int(1...4)).map { _ in fuzz.fortuneLine() }
                let source = fuzz.chance(40) ? fuzz.fortuneLine() : nil
                let text = lines.map { $0.trimmingWhitespace() }.joined(separator: " ")
                expected.append(FortuneFile.Entry(text: text, source: source))
                let dash = fuzz.pick(["-- ", "\t\t-- ", "    — ", "--"])
                chunks.append((lines + (source.map { [dash + $0] } ?? [])).joined(separator: "\n"))
            }
            let text = chunks.joined(separator: fuzz.pick(["\n%\n", "\n%\n\n", "\n  %\t\n", "\n%\r\n"]))
                + fuzz.pick(["", "\n", "\n%\n", "\n%"])
            #expect((try? FortuneFile.parse(Array(text.utf8), file: "wisdom")) == expected, "\(fuzz.label(text))")
        }
    }

    @Test func an_imported_fortune_file_reads_back_as_the_quotes_returned_and_is_left_as_it_was() throws {
        let seed: UInt64 = 0xF027_0003
        try fuzz(150, seed: seed, "fortune files imported and read back") { fuzz in
            let folder = TemporaryDirectory()
            let name = fuzz.pick(["wisdom", "zen.txt", "Art of War", "stoics.fortune", "café"])
            let path = folder.path + "/" + name
            // Without combining marks, which the writer trims differently from
            // the reader (a_quote_starting_with_a_combining_mark_after_a_space_reads_back_as_added).
            let bytes = fuzz.fortuneBytes(oddities: Fuzz.oddities.filter { !$0.unicodeScalars.contains("\u{301}") })
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            let before = try FileSnapshot(path)
            let label = fuzz.label(bytes)
            let quotes = folder.path + "/quotes"
            let imported: [Quote]
            do {
                imported = try QuoteLibrary(folder: quotes).importFortunes(from: path)
            } catch let error as MigaError {
                #expect(isOneShortLine(error.message), "\(label)")
                #expect(!FileManager.default.fileExists(atPath: quotes), "a refused import wrote something: \(label)")
                return
            }
            #expect(try FileSnapshot(path) == before, "importing changed the fortune file: \(label)")
            let library = QuoteLibrary(folder: quotes)
            #expect(library.problems.isEmpty, "\(library.problems): \(label)")
            for quote in imported {
                let stored = library.bank[quote.id]
                #expect(stored?.text == quote.text && stored?.tags == quote.tags && stored?.file == quote.file
                        && stored?.source == quote.source,
                        "\(quote) read back as \(String(describing: stored)): \(label)")
            }
        }
    }

    // MARK: - Desktop entries

    @Test func any_desktop_entry_text_is_refused_with_its_line_or_written_back_byte_for_byte() throws {
        let seed: UInt64 = 0xDE5C_0001
        var accepted = 0
        try fuzz(3_000, seed: seed, "desktop entry inputs (\(accepted) accepted; random bytes, line soup, mutations)") { fuzz in
            let text = fuzz.desktopText()
            let label = fuzz.label(text)
            let entry: DesktopEntry
            do {
                entry = try DesktopEntry(text: text)
            } catch let error as DesktopEntryError {
                #expect(isOneShortLine(error.message), "message \(error.message.debugDescription): \(label)")
                if let line = error.line {
                    #expect((1...desktopLineCount(text)).contains(line), "line \(line): \(label)")
                }
                #expect(throws: error, "not deterministic: \(label)") { try DesktopEntry(text: text) }
                return
            }
            accepted += 1
            // Whatever MIGA does not change must come out exactly as it went in.
            #expect(Array(entry.text.utf8) == Array(text.utf8), "not written back byte for byte: \(label)")
            #expect((try? DesktopEntry(text: entry.text)) == entry, "\(label)")
            #expect(entry.groups.first == DesktopEntry.mainGroup, "\(label)")
            #expect(Set(entry.groups).count == entry.groups.count, "\(label)")
            for group in entry.groups {
                // The Exec line of any group may be anything: splitting it must not crash,
                // and what it splits into must join and split back the same.
                guard let exec = entry.value("Exec", in: group), let arguments = try? DesktopExec.split(exec) else { continue }
                #expect((try? DesktopExec.split(DesktopExec.join(arguments))) == arguments, "Exec of [\(group)]: \(label)")
            }
        }
        #expect(accepted > 3_000 / 10, "the generator hardly makes a valid file; the round trip is barely tested")
    }

    @Test func a_value_set_in_any_valid_desktop_entry_reads_back_and_leaves_every_other_line() throws {
        let seed: UInt64 = 0xDE5C_0002
        try fuzz(1_000, seed: seed, "desktop entry values set, read back and removed") { fuzz in
            let original = try fuzz.validDesktopEntry()
            let group = fuzz.chance(80) ? fuzz.pick(original.groups) : fuzz.groupName()
            let key = fuzz.desktopKey()
            let value = fuzz.freeText(Fuzz.desktopValuePieces)
            let label = fuzz.label("\(original.text.debugDescription) [\(group)] \(key) = \(value.debugDescription)")
            let had = original.value(key, in: group) != nil
            var entry = original
            entry.setValue(value, for: key, in: group)
            let reread = try #require(try? DesktopEntry(text: entry.text), "the set value broke the file: \(label)")
            #expect(reread.value(key, in: group) == value, "\(label)")
            let before = desktopLines(original.text), after = desktopLines(entry.text)
            if had {
                #expect(before.count == after.count && zip(before, after).filter { $0 != $1 }.count <= 1,
                        "more than its own line changed: \(label)")
            } else {
                #expect(isSubsequence(before, of: after), "a line was changed or lost: \(label)")
            }
            entry.removeValue(for: key, in: group)
            #expect((try? DesktopEntry(text: entry.text))?.value(key, in: group) == nil, "\(label)")
            if had {
                #expect(isSubsequence(desktopLines(entry.text), of: before), "\(label)")
            } else {
                // Removing what was added gives back the file, unless its group had to be added.
                #expect(!original.groups.contains(group) || entry.text == original.text, "\(label)")
            }
        }
    }

    @Test func any_exec_line_is_refused_with_a_message_or_splits_into_arguments_that_join_back() throws {
        let seed: UInt64 = 0xDE5C_0003
        var quotedBreaks = 0
        try fuzz(1_500, seed: seed, "desktop Exec lines (\(quotedBreaks) messages quoting a line break)") { fuzz in
            let exec = fuzz.execText()
            let label = fuzz.label(exec)
            let arguments: [ExecArgument]
            do {
                arguments = try DesktopExec.split(exec)
            } catch let error as DesktopEntryError {
                #expect(error.line == nil, "\(label)")
                checkMessage(error.message, label, quotedBreaks: &quotedBreaks)
                return
            }
            #expect((try? DesktopExec.split(DesktopExec.join(arguments))) == arguments, "\(label)")
            #expect((try? DesktopExec.split(exec)) == arguments, "not deterministic: \(label)")
        }
    }

    // MARK: - Focus hours

    @Test func any_focus_hours_text_is_refused_with_a_message_or_gives_hours_within_the_day() throws {
        let seed: UInt64 = 0x4045_0001
        var quotedBreaks = 0
        let zones = ["UTC", "Europe/Berlin", "America/St_Johns", "Pacific/Kiritimati"].compactMap(TimeZone.init(identifier:))
        try fuzz(2_500, seed: seed, "focus hours inputs (\(quotedBreaks) messages quoting a line break)") { fuzz in
            let text = fuzz.hoursText()
            let label = fuzz.label(text)
            let hours: FocusHours
            do {
                hours = try FocusHours(text)
            } catch let error as MigaError {
                checkMessage(error.message, label, quotedBreaks: &quotedBreaks)
                #expect(throws: error, "not deterministic: \(label)") { try FocusHours(text) }
                return
            }
            #expect(!hours.rules.isEmpty, "\(label)")
            for rule in hours.rules {
                #expect(!rule.days.isEmpty && rule.days.isSubset(of: 1...7), "days \(rule.days): \(label)")
                #expect(!rule.ranges.isEmpty, "\(label)")
                for range in rule.ranges {
                    #expect((0..<1440).contains(range.start) && (0...1440).contains(range.end) && range.start != range.end,
                            "range \(range): \(label)")
                }
            }
            // What `miga list` shows and the config keeps must read back as the same hours.
            #expect((try? FocusHours(hours.description)) == hours, "\(hours.description.debugDescription): \(label)")
            // Asking never crashes, whatever the day, the zone or the hours.
            for zone in zones {
                _ = hours.contains(Date(timeIntervalSince1970: Double(fuzz.int(0...2_000_000_000))), in: zone)
            }
        }
    }

    @Test func focus_hours_written_in_any_valid_spelling_read_as_the_days_and_minutes_meant() throws {
        let seed: UInt64 = 0x4045_0002
        try fuzz(1_000, seed: seed, "valid focus hours read") { fuzz in
            let (text, rules) = fuzz.validHours()
            let hours = try #require(try? FocusHours(text), "refused: \(fuzz.label(text))")
            #expect(hours.rules == rules, "\(fuzz.label(text))")
        }
    }

    // MARK: - Bugs the fuzzing found (minimal inputs)

    // Each test below pins a bug the fuzzing found, now fixed.

    @Test func a_table_header_that_no_key_can_start_is_a_syntax_error_not_an_abort() async {
        // toml++ 3.4.0 (vendored by TOMLKit 0.6.0) asserts in parse_key
        // instead of throwing: marzer/tomlplusplus#301. SwiftPM compiles C++
        // without NDEBUG in release builds too, so `miga gate` aborts with
        // SIGABRT and the program never opens. An exit test, because the
        // abort ends the process it happens in.
        await #expect(processExitsWith: .success) {
            for text in ["[[[programs]]]\n", "[é]\n", "[\n"] {
                precondition(ConfigLoader.parse(text, file: "config.toml").syntaxError != nil)
            }
        }
    }

    @Test func a_unicode_line_separator_where_an_array_expects_a_value_is_a_syntax_error_not_an_abort() async {
        // toml++ 3.4.0 asserts `!is_value_terminator(*cp)` in parse_value for
        // U+0085, U+2028 and U+2029 there (pasted text carries them).
        await #expect(processExitsWith: .success) {
            precondition(ConfigLoader.parse("interests = [\u{2028}\"Zen\"]\n", file: "config.toml").syntaxError != nil)
        }
    }

    @Test func a_nul_in_the_config_is_reported_rather_than_ending_the_text_there() {
        // TOMLKit passes the text to toml++ as a C string, and reads strings
        // back as C strings: the parser sees the file up to a NUL byte (the
        // table after it is dropped without a word, and Firefox opens with no
        // pause), and a string ends at an escaped NUL.
        let file = ConfigLoader.parse("pause = 30\n\u{0}\n[programs.firefox]\n", file: "config.toml")
        #expect(file.config.programs["firefox"] != nil || !file.problems.isEmpty)
        let string = ConfigLoader.parse("[programs.firefox]\nname = \"Fire\\u0000fox\"\n", file: "config.toml")
        #expect(string.config.programs["firefox"]?.name == "Fire\u{0}fox" || !string.problems.isEmpty)
    }

    @Test func a_problem_in_a_file_with_windows_line_ends_names_its_line() throws {
        // KeyLocator splits at Character "\n", and "\r\n" is one Character
        // that is not "\n": the whole file is one line to it.
        let loaded = ConfigLoader.parse("notifications = true\r\npause = \"soon\"\r\n", file: "config.toml")
        let problem = try #require(loaded.problems.first)
        #expect(problem.line == 2)
    }

    @Test(arguments: ["escalate = tru\n", "\"a\\nb\" = 1\n", "pause = \"a\\nb\"\n", "[programs.x]\nhours = \"Mon\\n\"\n"])
    func a_config_problem_is_one_line_even_when_it_quotes_a_line_break(_ text: String) throws {
        // toml++ quotes the token it saw up to and with the line feed; the
        // loader quotes keys and values as they are, line breaks and all.
        let problem = try #require(ConfigLoader.parse(text, file: "config.toml").problems.first)
        #expect(!problem.message.contains("\n"), "\(problem.message.debugDescription)")
    }

    @Test func a_focus_hours_message_is_one_line_even_when_the_text_has_a_line_break() throws {
        // The days-but-no-times message trims spaces but not line breaks.
        let error = try #require(throws: MigaError.self) { try FocusHours("sat\n") }
        #expect(!error.message.contains("\n"), "\(error.message.debugDescription)")
    }

    @Test func an_exec_message_names_a_line_break_after_a_percent_sign_in_words() throws {
        // The character after a percent sign is named by its number, never printed (U+0085 is a C1 control).
        let error = try #require(throws: DesktopEntryError.self) { try DesktopExec.split("app %\u{85}") }
        #expect(!error.message.contains("\u{85}") && error.message.contains("U+0085"), "\(error.message.debugDescription)")
    }

    @Test func a_time_with_a_plus_sign_is_not_a_time_of_day() {
        // `Int("+9")` is 9, so "+9:00" passes for 09:00 although the format is HH:MM.
        #expect(throws: MigaError.self) { try FocusHours("Mon +9:00-17:00") }
    }

    @Test func a_quote_added_with_windows_line_ends_stays_one_quote() throws {
        // `oneLine` splits at Character "\n" and "\r", and "\r\n" is one
        // Character that is neither: the line feed reaches the file, the quote
        // is cut there, and its second half is a broken line.
        let folder = TemporaryDirectory()
        let added = try QuoteLibrary(folder: folder.path).add(text: "one\r\ntwo", tags: ["Rest"], source: nil)
        let library = QuoteLibrary(folder: folder.path)
        #expect(added.text == "one two")
        #expect(library.bank[added.id] == added)
        #expect(library.problems.isEmpty)
    }

    @Test func a_tag_made_only_of_commas_is_refused_rather_than_losing_the_quote() throws {
        // Commas become spaces after the tags are trimmed, so "," is a tag of
        // one space: written, it is no tag, and the line is dropped with a
        // problem; the next `add` reuses the id. "Nature," keeps a space too.
        let folder = TemporaryDirectory()
        let library = QuoteLibrary(folder: folder.path)
        let added = try? library.add(text: "Rest.", tags: [","], source: nil)
        let trailing = try library.add(text: "Look up.", tags: ["Nature,"], source: nil)
        let reread = QuoteLibrary(folder: folder.path)
        #expect(added == nil || reread.bank[added!.id] == added)
        #expect(trailing.tags == ["Nature"])
        #expect(reread.problems.isEmpty)
    }

    @Test func a_quote_starting_with_a_combining_mark_after_a_space_reads_back_as_added() throws {
        // The writer trims Characters, and " \u{301}" is one Character that is
        // not a space; the reader trims bytes and takes the space off.
        let folder = TemporaryDirectory()
        let added = try QuoteLibrary(folder: folder.path).add(text: " \u{301}x", tags: ["Rest"], source: nil)
        let stored = QuoteLibrary(folder: folder.path).bank[added.id]
        #expect(stored == added)
    }

    @Test func a_fortune_whose_source_line_is_only_dashes_has_no_source() throws {
        // FortuneFile makes "--" the source "", import keeps it, and the
        // file it writes reads back as no source.
        let folder = TemporaryDirectory()
        try folder.write("Keep going.\n--\n", to: "dash")
        let imported = try QuoteLibrary(folder: folder.path + "/quotes").importFortunes(from: folder.path + "/dash")
        #expect(imported.first?.source == nil)
    }

    @Test func importing_a_fortune_file_named_mine_keeps_the_persons_own_quotes() throws {
        // The import writes `<name>.txt` in the quote folder, and `mine.txt`
        // is where `miga quotes add` keeps the person's own quotes.
        let folder = TemporaryDirectory()
        let quotes = folder.path + "/quotes"
        let own = try QuoteLibrary(folder: quotes).add(text: "My own words.", tags: ["Rest"], source: nil)
        try folder.write("A fortune.\n", to: "mine")
        _ = try QuoteLibrary(folder: quotes).importFortunes(from: folder.path + "/mine")
        #expect(QuoteLibrary(folder: quotes).bank[own.id] == own)
    }
}

// MARK: - Inputs that abort the TOML parser

// MARK: - Properties shared by the parsers

/// A problem message a person reads after `file:line:` on a terminal: there,
/// not empty, and one line (a line break would start a fake `file:line:` of
/// its own), of a length a terminal can show.
private func isOneShortLine(_ message: String) -> Bool {
    !message.isEmpty && !message.unicodeScalars.contains { $0 == "\n" } && message.unicodeScalars.count < 4_000
}

/// `isOneShortLine`, as an expectation; `quotedBreaks` counts any message
/// that quoted a line break of the input (now shown as ⏎, so always zero).
private func checkMessage(_ message: String, _ label: String, quotedBreaks: inout Int,
                          sourceLocation: SourceLocation = #_sourceLocation) {
    if message.unicodeScalars.contains("\n") { quotedBreaks += 1 }
    #expect(isOneShortLine(message), "message \(message.debugDescription): \(label)", sourceLocation: sourceLocation)
}

/// Lines as the parsers count them: pieces between line feeds.
private func lineCount(_ text: String) -> Int { lineCount(Array(text.utf8)) }
private func lineCount(_ bytes: [UInt8]) -> Int { bytes.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 } }

/// A desktop entry file's lines, the newline at its end not opening another.
private func desktopLines(_ text: String) -> [String] {
    var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
    if lines.count > 1 && lines.last == "" { lines.removeLast() }
    return lines
}

private func desktopLineCount(_ text: String) -> Int { desktopLines(text).count }

private func isSubsequence(_ small: [String], of large: [String]) -> Bool {
    var rest = large[...]
    for item in small {
        guard let found = rest.firstIndex(where: { Array($0.utf8) == Array(item.utf8) }) else { return false }
        rest = rest[(found + 1)...]
    }
    return true
}

/// The lines of a quote file that hold a quote or a mistake: not blank (space,
/// tab and carriage return are blank), not a `#` comment.
private func contentLineCount(_ text: String) -> Int {
    Array(text.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).filter { line in
        let content = line.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        return content.contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D } && content.first != UInt8(ascii: "#")
    }.count
}

/// A quote as the format allows it: each field one trimmed line, the id one word.
private func isWellFormed(_ quote: Quote) -> Bool {
    let breaks: (Unicode.Scalar) -> Bool = { $0 == "\n" }
    let trimmed: (String) -> Bool = { field in
        let blank: Set<Unicode.Scalar> = [" ", "\t", "\r"]
        guard let first = field.unicodeScalars.first, let last = field.unicodeScalars.last else { return true }
        return !blank.contains(first) && !blank.contains(last)
    }
    return !quote.id.isEmpty && !quote.id.unicodeScalars.contains { breaks($0) || $0 == " " || $0 == "\t" || $0 == "|" } && trimmed(quote.id)
        && !quote.text.isEmpty && !quote.text.unicodeScalars.contains(where: breaks) && trimmed(quote.text)
        && !quote.tags.isEmpty && quote.tags.allSatisfy { !$0.isEmpty && trimmed($0) && !$0.unicodeScalars.contains { breaks($0) || $0 == "," || $0 == "|" } }
        && quote.source.map { !$0.isEmpty && trimmed($0) && !$0.unicodeScalars.contains { breaks($0) || $0 == "|" } } ?? true
}

/// Entries a fortune file holds: runs of lines between `%` lines with something in them.
private func fortuneChunksWithText(_ lines: [ArraySlice<UInt8>]) -> Int {
    var count = 0
    var hasText = false
    for line in lines {
        let text = String(decoding: line, as: UTF8.self).trimmingWhitespace()
        if text == "%" {
            if hasText { count += 1 }
            hasText = false
        } else if !text.isEmpty {
            hasText = true
        }
    }
    return count + (hasText ? 1 : 0)
}

/// The settings in effect for each program, which is what the config summary
/// promises to show (it spells out defaults and leaves out the icon).
private struct Effective: Equatable {
    let top: [String]
    let programs: [String: [String]]

    init(_ config: Config) {
        top = ["\(config.pause)", "\(config.interests)", "\(config.notifications)", "\(config.reducedMotion)"]
        programs = config.programs.mapValues { settings in
            [settings.displayName, "\(settings.pause ?? config.pause)", settings.nonInteractive.rawValue,
             "\(settings.allowMinutes.map { "\($0)" } ?? "-")", "\(settings.escalation.map { "\($0)" } ?? "-")",
             settings.hours?.description ?? "-", "\(settings.holdWhenUnfocused)", "\(settings.askIntention)"]
        }
    }
}

/// What a reader can change in a file: its bytes, its inode (an atomic
/// rewrite keeps the bytes but not the inode) and its modification time.
private struct FileSnapshot: Equatable {
    let bytes: Data
    let inode: Int
    let modified: Date

    init(_ path: String) throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        inode = (attributes[.systemFileNumber] as? NSNumber)?.intValue ?? -1
        modified = (attributes[.modificationDate] as? Date) ?? .distantPast
    }
}

private func hex(_ seed: UInt64) -> String { "0x" + String(seed, radix: 16, uppercase: true) }

// MARK: - The generator

/// Draws `count` inputs, each from a generator of its own seeded from `seed`
/// and its index (so a failure names both, and `Fuzz(seed:index:)` draws that
/// input again alone), checks each with `check`, then says what was tried.
private func fuzz(_ count: Int, seed: UInt64, _ what: @autoclosure () -> String,
                  _ check: (inout Fuzz) throws -> Void) rethrows {
    for index in 0..<count {
        var input = Fuzz(seed: seed, index: index)
        try check(&input)
    }
    print("fuzz: \(count) \(what()), seed \(hex(seed))")
}

/// One input's worth of randomness, from the project's `SeededGenerator`.
private struct Fuzz {
    let seed: UInt64
    let index: Int
    var generator: SeededGenerator

    init(seed: UInt64, index: Int) {
        self.seed = seed
        self.index = index
        // Hash (seed, index) into a fresh seed: SplitMix64 seeded with
        // `seed + index` directly would give each input its neighbour's stream
        // shifted by one draw.
        var mixer = SeededGenerator(seed: seed &+ UInt64(index))
        generator = SeededGenerator(seed: mixer.next())
    }

    /// Where a failing input comes from, and enough of it to see why.
    func label(_ text: String) -> String {
        let shown = text.debugDescription
        return "seed \(hex(seed)) index \(index), input \(shown.count > 600 ? String(shown.prefix(600)) + "…" : shown)"
    }

    func label(_ bytes: [UInt8]) -> String {
        "seed \(hex(seed)) index \(index), bytes \(bytes.prefix(300).map { String($0, radix: 16) }.joined(separator: " "))"
            + (bytes.count > 300 ? " …" : "")
    }

    func label(_ files: [[UInt8]]) -> String {
        "seed \(hex(seed)) index \(index), \(files.count) files of \(files.map(\.count)) bytes"
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    // MARK: Raw material

    /// What breaks parsers: control characters, both line ends, a byte order
    /// mark, combining marks (alone and after a space), wide and joined
    /// emoji, other line separators, a terminal escape, quotes, backslashes.
    static let oddities = ["\u{0}", "\r", "\r\n", "\n", "\t", " ", "\u{FEFF}", "\u{301}", " \u{301}", "é", "e\u{301}", "中",
                           "🙂", "👩‍👩‍👧", "\u{2028}", "\u{85}", "\u{1B}[31m", "\u{7F}", "\\", "\"", "'", "\u{10FFFF}", "ﬃ"]

    /// Bytes that are not UTF-8: a lone continuation, a truncated sequence, an
    /// overlong slash, a surrogate, a code point past U+10FFFF, and NUL.
    static let invalidUTF8: [[UInt8]] = [[0x80], [0xFF], [0xC3], [0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80],
                                         [0xF4, 0x90, 0x80, 0x80], [0x00], [0x0D, 0x0A], [0x0A]]

    mutating func randomBytes(upTo count: Int) -> [UInt8] {
        let length = int(0...count)
        if chance(50) { return (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        // Mostly printable ASCII with line feeds: more lines for the parsers to look at.
        return (0..<length).map { _ in chance(10) ? 0x0A : UInt8.random(in: 0x20...0x7E, using: &generator) }
    }

    mutating func soup(_ vocabulary: [String], pieces: ClosedRange<Int>, oddities: [String] = Fuzz.oddities) -> String {
        (0..<int(pieces)).map { _ in !oddities.isEmpty && chance(8) ? pick(oddities) : pick(vocabulary) }.joined()
    }

    /// Some text made of `pieces` and `oddities`, rarely very long.
    mutating func freeText(_ pieces: [String], oddities: [String] = Fuzz.oddities) -> String {
        if chance(2) { return String(repeating: pick(pieces), count: int(500...3_000)) }
        return soup(pieces, pieces: 0...8, oddities: oddities)
    }

    /// `text` with one to four edits: a Unicode scalar or a line deleted,
    /// duplicated or swapped, or something odd put in.
    mutating func mutated(_ text: String, vocabulary: [String]) -> String {
        var scalars = Array(text.unicodeScalars)
        for _ in 0..<int(1...4) {
            switch int(0...6) {
            case 0 where !scalars.isEmpty:
                scalars.remove(at: int(0...(scalars.count - 1)))
            case 1 where !scalars.isEmpty:
                let at = int(0...(scalars.count - 1))
                scalars.insert(scalars[at], at: at)
            case 2 where scalars.count > 1:
                scalars.swapAt(int(0...(scalars.count - 1)), int(0...(scalars.count - 1)))
            case 3:
                let piece = chance(50) ? pick(Self.oddities) : pick(vocabulary)
                scalars.insert(contentsOf: piece.unicodeScalars, at: int(0...scalars.count))
            default:
                var lines = scalars.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
                let at = int(0...(lines.count - 1))
                switch int(0...2) {
                case 0 where lines.count > 1: lines.remove(at: at)
                case 1: lines.insert(lines[at], at: at)
                default: lines.swapAt(at, int(0...(lines.count - 1)))
                }
                scalars = Array(lines.joined(separator: ["\n"]))
            }
        }
        return String(String.UnicodeScalarView(scalars))
    }

    /// `bytes` with one to four byte edits, some of them not UTF-8.
    mutating func mutated(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<int(1...4) {
            switch int(0...3) {
            case 0 where !bytes.isEmpty: bytes.remove(at: int(0...(bytes.count - 1)))
            case 1 where !bytes.isEmpty:
                let at = int(0...(bytes.count - 1))
                bytes.insert(bytes[at], at: at)
            case 2 where bytes.count > 1: bytes.swapAt(int(0...(bytes.count - 1)), int(0...(bytes.count - 1)))
            default: bytes.insert(contentsOf: pick(Self.invalidUTF8), at: int(0...bytes.count))
            }
        }
        return bytes
    }

    /// The usual mix for a parser: a quarter random bytes, a quarter token
    /// soup, half mutations of valid examples (so that most inputs get past
    /// the first line and exercise what lies behind it).
    mutating func mix(examples: [String], vocabulary: [String], pieces: ClosedRange<Int>) -> String {
        switch int(0...7) {
        case 0, 1: return String(decoding: randomBytes(upTo: 300), as: UTF8.self)
        case 2, 3: return soup(vocabulary, pieces: pieces)
        case 4: return mutated(pick(examples) + pick(examples), vocabulary: vocabulary)
        default: return mutated(pick(examples), vocabulary: vocabulary)
        }
    }

    // MARK: config.toml

    static let configExamples = [
        """
        pause = 45
        interests = ["Stoicism", "Nature"]
        notifications = false
        reduced_motion = true

        [programs.firefox]
        name = "Firefox"
        icon = "firefox"
        pause = 30
        non_interactive = "deny"
        allow_minutes = 15
        escalate = true
        escalate_step = 30
        escalate_max = 300
        hours = "Mon-Fri 09:00-17:00; Sat,Sun 10:00-12:00"
        hold_when_unfocused = true
        ask_intention = true

        [programs.steam]

        """,
        """
        # MIGA settings
        pause = 90   # seconds
        [programs."code-insiders"]
        non_interactive = "terminal"
        allow_minutes = 0.5
        [programs.'my game']
        pause = 3600
        """,
        """
        interests = [
          "Zen",   # trailing comma next
          "Poetry",
        ]
        programs.discord.pause = 20
        programs.discord.hours = "Fri 22:00-02:00"
        """,
        "[programs]\nfirefox = { pause = 12, name = \"Fx\" }\n",
        "pause = \"soon\"\nnotificatons = true\n[programs.\"a/b\"]\n[programs.x]\nallow_minutes = 0\nhours = \"Mon\"\n",
    ]

    static let configTokens = [
        "[programs.firefox]", "[programs.\"a b\"]", "[programs]", "[[programs.x]]", "[programs.x.y]", "[", "]", "[[", "]]",
        "{", "}", "=", " = ", "\"", "'", "\"\"\"", "'''", ",", ".", "#", "# note", "\n", "\n", "\n", " ", "\t",
        "pause", "interests", "notifications", "reduced_motion", "programs", "name", "icon", "non_interactive",
        "allow_minutes", "escalate", "escalate_step", "escalate_max", "hours", "hold_when_unfocused", "ask_intention",
        "paus", "firefox", "\"firefox\"", "true", "false", "0", "1", "90", "-1", "3601", "1.5", "1e3", "inf", "nan",
        "-0.0", "0x10", "1_000", "9223372036854775807", "99999999999999999999", "1979-05-27T07:32:00Z", "07:32:00",
        "1979-05-27", "\"Mon-Fri 09:00-17:00\"", "\"deny\"", "\"terminal\"", "\\n", "\\u0000", "\\u00e9",
        "\\U0001F642", "\\x", "\\", "pause = ", "\npause = 30\n", "\n[programs.a]\npause = 5\n",
    ]

    mutating func configText() -> String {
        // Nesting deeper than the TOML parser allows, once in a while.
        if chance(1) { return "x = " + String(repeating: pick(["[", "{a=", "[{a="]), count: int(100...3_000)) }
        return mix(examples: Self.configExamples, vocabulary: Self.configTokens, pieces: 1...40)
    }

    mutating func configBytes() -> [UInt8] {
        switch int(0...2) {
        case 0: return randomBytes(upTo: 300)
        case 1: return mutated(Array(pick(Self.configExamples).utf8))
        default: return Array(configText().utf8)
        }
    }

    /// Anything a person may have in a string; NUL is left out (see the known issues).
    static let odditiesButNUL = oddities.filter { $0 != "\u{0}" }
    static let stringPieces = ["a", "Firefox", " ", "\"", "\\", "'", "\t", "\n", "\r", "#", "=", "[", "]", "é", "中", "🙂",
                               "\u{301}", "\u{7F}", "\u{1B}", "\u{1}", "\u{FEFF}", "\u{2028}", "$", "%", "\u{10FFFF}"]

    mutating func validConfig() throws -> Config {
        var config = Config()
        if chance(70) { config.pause = chance(20) ? pick([1, 3600]) : int(Config.pauseRange) }
        if chance(60) { config.interests = (0..<int(0...4)).map { _ in freeText(Self.stringPieces, oddities: Self.odditiesButNUL) } }
        if chance(50) { config.notifications.toggle() }
        if chance(50) { config.reducedMotion.toggle() }
        for _ in 0..<int(0...4) {
            let command = chance(60)
                ? pick(["firefox", "steam", "code-insiders", "x_1", "0ad", "true", "pause", "programs"])
                : soup(["a", "b", ".", " ", "-", "\"", "'", "é", "中", "#", "[", "]", "\\", "="], pieces: 1...8, oddities: Self.odditiesButNUL)
            // A command is never empty and never a path: the loader refuses those.
            guard !command.isEmpty, !command.contains("/"), !command.unicodeScalars.contains("\u{0}") else { continue }
            var settings = ProgramSettings(command: command)
            if chance(50) { settings.name = freeText(Self.stringPieces, oddities: Self.odditiesButNUL) }
            if chance(30) { settings.icon = freeText(Self.stringPieces, oddities: Self.odditiesButNUL) }
            if chance(50) { settings.pause = int(Config.pauseRange) }
            settings.nonInteractive = pick(NonInteractivePolicy.allCases)
            if chance(40) {
                settings.allowMinutes = pick([0.1, 0.5, 1, 15, 1440, 1e-3, 1439.999, Double.random(in: 0.001...1440, using: &generator)])
            }
            if chance(40) { settings.escalate = true }
            if chance(40) { settings.escalateStep = int(ProgramSettings.escalateRange) }
            if chance(40) { settings.escalateMax = int(ProgramSettings.escalateRange) }
            if chance(40) { settings.hours = try FocusHours(validHours().text) }
            if chance(30) { settings.holdWhenUnfocused = true }
            if chance(30) { settings.askIntention = true }
            config.programs[command] = settings
        }
        return config
    }

    /// `config` as a person might write it: any order, comments, odd spacing,
    /// every value through the project's own TOML literals.
    mutating func render(_ config: Config) -> String {
        func decorate(_ lines: [String]) -> [String] {
            var lines = lines
            lines.shuffle(using: &generator)
            for (index, line) in lines.enumerated() where chance(20) { lines[index] = line + "   # a note" }
            if chance(30) { lines.insert("# " + pick(["a note", "é 中 🙂", "x = 1", "[programs.fake]"]), at: int(0...lines.count)) }
            if chance(30) { lines.insert("", at: int(0...lines.count)) }
            return lines
        }
        func assignment(_ key: String, _ literal: TOMLLiteral) -> String {
            key + pick([" = ", "=", "  =\t"]) + literal.text
        }
        var top: [String] = []
        if config.pause != Config.defaultPause || chance(30) { top.append(assignment("pause", .integer(config.pause))) }
        if !config.interests.isEmpty || chance(30) { top.append(assignment("interests", .strings(config.interests))) }
        if !config.notifications || chance(30) { top.append(assignment("notifications", .boolean(config.notifications))) }
        if config.reducedMotion || chance(30) { top.append(assignment("reduced_motion", .boolean(config.reducedMotion))) }
        var lines = decorate(top)
        for (command, settings) in config.programs.sorted(by: { $0.key < $1.key }) {
            var body: [String] = []
            if let name = settings.name { body.append(assignment("name", .string(name))) }
            if let icon = settings.icon { body.append(assignment("icon", .string(icon))) }
            if let pause = settings.pause { body.append(assignment("pause", .integer(pause))) }
            if settings.nonInteractive != .pass || chance(30) {
                body.append(assignment("non_interactive", .string(settings.nonInteractive.rawValue)))
            }
            if let minutes = settings.allowMinutes { body.append(assignment("allow_minutes", .number(minutes))) }
            if settings.escalate || chance(30) { body.append(assignment("escalate", .boolean(settings.escalate))) }
            if settings.escalateStep != Escalation.defaultStep || chance(30) { body.append(assignment("escalate_step", .integer(settings.escalateStep))) }
            if settings.escalateMax != Escalation.defaultMaximum || chance(30) { body.append(assignment("escalate_max", .integer(settings.escalateMax))) }
            if let hours = settings.hours { body.append(assignment("hours", .string(hours.description))) }
            if settings.holdWhenUnfocused || chance(30) { body.append(assignment("hold_when_unfocused", .boolean(settings.holdWhenUnfocused))) }
            if settings.askIntention || chance(30) { body.append(assignment("ask_intention", .boolean(settings.askIntention))) }
            lines += [""] + ["[programs.\(ConfigEditor.tableKey(command))]"] + decorate(body)
        }
        return lines.joined(separator: "\n") + (chance(80) ? "\n" : "")
    }

    // MARK: Quote files

    static let quoteExamples: [String] = {
        let bank = QuoteBank.builtIn.quotes
        return [
            bank.prefix(12).map(QuoteLibrary.line).joined(separator: "\n") + "\n",
            "# Your own quotes: id | tags | source | text\nmine-001 | Tea |  | The kettle is singing.\n",
            "a | x, y ,z | Someone | Text | with | pipes\r\n\n   # indented comment\n\tb|t||t\n",
        ]
    }()

    static let quoteTokens = ["|", " | ", ",", ", ", "#", "\n", "\n", "\r\n", " ", "\t", "mine-001", "zen-002", "Nature",
                              "Stoicism", "Seneca", "Breathe.", "The kettle is singing.", "a", "-", "  "]

    mutating func quoteText() -> String {
        mix(examples: Self.quoteExamples, vocabulary: Self.quoteTokens, pieces: 1...40)
    }

    mutating func quoteBytes() -> [UInt8] {
        switch int(0...2) {
        case 0: return randomBytes(upTo: 300)
        case 1: return mutated(Array(pick(Self.quoteExamples).utf8))
        default: return Array(quoteText().utf8)
        }
    }

    /// Text for a field of a quote, before the library makes it fit one line.
    static let quoteFieldPieces = ["a", "Breathe.", " ", "  ", "\t", "\n", "\r", "|", ",", "#", "-", "é", "中", "🙂", "\u{FEFF}",
                                   "\u{2028}", "\u{7F}", "\u{0}", "\\", "\"", "mine-001", "e\u{301}"]

    /// Anything the person may type for `miga quotes add`.
    mutating func typedField(tag: Bool = false) -> String {
        freeText(Self.quoteFieldPieces, oddities: Self.oddities)
    }

    /// A quote any way the file format allows it: each field on one line
    /// without blanks at its ends, no `|` before the text, no comma in a tag,
    /// an id of one word that does not start a comment. Nil when a field that
    /// must have something came out empty.
    mutating func validQuote(number: Int) -> Quote? {
        func field(without forbidden: Set<Unicode.Scalar>) -> String {
            let blank: Set<Unicode.Scalar> = [" ", "\t", "\r"]
            var scalars = Array(freeText(Self.quoteFieldPieces).unicodeScalars.filter { !forbidden.contains($0) })
            while let first = scalars.first, blank.contains(first) { scalars.removeFirst() }
            while let last = scalars.last, blank.contains(last) { scalars.removeLast() }
            return String(String.UnicodeScalarView(scalars))
        }
        let id = "q" + field(without: ["\n", "|", " ", "\t"]) + "-\(number)"
        let text = field(without: ["\n"])
        let tags = (0..<int(1...3)).map { _ in field(without: ["\n", "|", ","]) }.filter { !$0.isEmpty }
        let source = field(without: ["\n", "|"])
        guard !text.isEmpty, !tags.isEmpty else { return nil }
        return Quote(id: id, text: text, source: source.isEmpty || chance(30) ? nil : source, tags: tags, file: "mine.txt")
    }

    // MARK: fortune(6) files

    static let fortuneExamples = [
        "A penny saved is a penny\nearned, more or less.\n%\nWhatever you are, be a good one.\n\t\t-- A. Lincoln (apocryphal)\n%\n\n%\nShort | with a pipe.\n",
        "%\n%\n",
        "one\r\n%\r\ntwo\r\n    — Someone\r\n",
    ]

    static let fortuneTokens = ["%", "\n%\n", "\n", "\n", " ", "\t", "-- ", "—", "\t\t-- A. Lincoln", "word", "Words of wisdom.",
                                "|", "%%", " %", "\r", "\r\n"]

    mutating func fortuneBytes(oddities: [String] = Fuzz.oddities) -> [UInt8] {
        switch int(0...3) {
        case 0: return randomBytes(upTo: 300)
        case 1: return Array(soup(Self.fortuneTokens, pieces: 1...30, oddities: oddities).utf8)
        default: return mutated(Array(pick(Self.fortuneExamples).utf8))
        }
    }

    /// A line of a fortune with something in it, neither `%` nor starting with
    /// a dash (so that only the line meant as the source reads as one).
    mutating func fortuneLine() -> String {
        let words = ["Be", "kind.", "|", "é", "中", "🙂", "\t", " ", "wisdom", "%%", "\u{FEFF}", "x-y", "a--b"]
        return "w" + (0..<int(0...6)).map { _ in pick(words) }.joined() + "d"
    }

    // MARK: Desktop entries

    static let desktopExamples = [
        """
        [Desktop Entry]
        Version=1.0
        Name=Firefox Web Browser
        Name[de]=Firefox-Webbrowser
        Name[sr@latin]=Firefox veb pregledač
        Comment=Browse the World Wide Web
        Exec=/usr/lib/firefox/firefox %u
        Icon=firefox
        Terminal=false
        Type=Application
        Actions=new-window;new-private-window;

        [Desktop Action new-window]
        Name=Open a New Window
        Exec=/usr/lib/firefox/firefox --new-window %u

        [Desktop Action new-private-window]
        Name=Open a New Private Window
        Exec=/usr/lib/firefox/firefox --private-window %u

        """,
        "# A comment first\n[Desktop Entry]\nName = Spaced\nExec=env \"A=b c\" app --flag=%f\nX-Odd=a\\sb\\nc\\\\d\\;e\n",
        "[Desktop Entry]\nName=Steam\nExec=/usr/bin/steam %U\n[X-Extra]\nKey=Value\n#end",
    ]

    static let desktopTokens = ["[Desktop Entry]", "[Desktop Action a]", "[X-Foo]", "[", "]", "=", " = ", "Name", "Name[de]",
                                "Exec", "Exec=firefox %u", "Type=Application", "#", "# c", "\n", "\n", "\n", "\n", "\r", "\r\n",
                                " ", "\t", "\\s", "\\n", "\\\\", "%u", "%%", "\"", "a", "-", "[x-test]", "Key=Value"]

    mutating func desktopText() -> String {
        mix(examples: Self.desktopExamples, vocabulary: Self.desktopTokens, pieces: 1...30)
    }

    /// A valid entry: an example, maybe mutated while it still parses.
    mutating func validDesktopEntry() throws -> DesktopEntry {
        let example = pick(Self.desktopExamples)
        for _ in 0..<3 {
            if let entry = try? DesktopEntry(text: mutated(example, vocabulary: Self.desktopTokens)) { return entry }
        }
        return try DesktopEntry(text: example)
    }

    mutating func desktopKey() -> String {
        let name = chance(50) ? pick(["Name", "Exec", "Icon", "X-MIGA-Gateway", "Comment", "Key"])
            : soup(["a", "Z", "0", "-"], pieces: 1...6, oddities: [])
        return chance(30) ? name + "[" + pick(["de", "sr@latin", "pt_BR", "x-test", "en_US.UTF-8"]) + "]" : name
    }

    mutating func groupName() -> String {
        pick(["Desktop Action new", "X-MIGA", "Desktop Action a b", "x"]) + soup(["a", " ", "~", "!", "0"], pieces: 0...4, oddities: [])
    }

    static let desktopValuePieces = ["a", " ", "  ", "\t", "\n", "\r", "\r\n", "\\", "\\s", "\\n", "=", "[", "#", "%u", "\"", "é",
                                     "🙂", "\u{301}", "\u{0}", ";"]

    static let execPieces = [" ", "  ", "\"", "\\", "\\\"", "\\\\", "%", "%%", "%u", "%U", "%f", "%i", "%x", "firefox", "--flag=",
                             "'", "$", "`", "a", "é", "\t", "\n", ">", "~", "=", "/usr/bin/app"]

    mutating func execText() -> String {
        chance(20) ? String(decoding: randomBytes(upTo: 80), as: UTF8.self) : soup(Self.execPieces, pieces: 0...16)
    }

    // MARK: Focus hours

    static let hoursTokens = ["Mon", "Fri", "sat", "SUNDAY", "Tuesday", "Mo", "-", "-", ",", ";", " ", " ", "\t", "09:00", "17:30",
                              "24:00", "00:00", "9:00", "23:59", "24:01", "25:00", "12:60", "1:5", "123:00", ":", "0",
                              "٠٩:٠٠", "09:00-17:00", "22:00-02:00", "\n"]

    mutating func hoursText() -> String {
        switch int(0...4) {
        case 0: return String(decoding: randomBytes(upTo: 40), as: UTF8.self)
        case 1, 2: return soup(Self.hoursTokens, pieces: 0...12)
        default: return mutated(validHours().text, vocabulary: Self.hoursTokens)
        }
    }

    /// Focus hours in any spelling the format allows, with the rules they mean.
    mutating func validHours() -> (text: String, rules: [FocusHours.Rule]) {
        let short = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let long = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        func dayName(_ day: Int) -> String {
            let name = chance(70) ? short[day - 1] : long[day - 1]
            return pick([name, name.lowercased(), name.uppercased()])
        }
        func time(_ minutes: Int) -> String {
            let hour = minutes / 60, minute = minutes % 60
            return (hour < 10 && chance(30) ? "\(hour)" : (hour < 10 ? "0\(hour)" : "\(hour)")) + ":" + (minute < 10 ? "0\(minute)" : "\(minute)")
        }
        var parts: [String] = []
        var rules: [FocusHours.Rule] = []
        for _ in 0..<int(1...3) {
            var words: [String] = []
            var days = Set(1...7)
            if chance(70) {
                days = []
                var items: [String] = []
                for _ in 0..<int(1...3) {
                    let first = int(1...7)
                    if chance(50) {
                        let last = int(1...7)
                        items.append(dayName(first) + "-" + dayName(last))
                        // A range may wrap around the end of the week.
                        days.formUnion(first <= last ? Set(first...last) : Set(first...7).union(1...last))
                    } else {
                        items.append(dayName(first))
                        days.insert(first)
                    }
                }
                words.append(items.joined(separator: ","))
            }
            var ranges: [(start: Int, end: Int)] = []
            for _ in 0..<int(1...3) {
                let start = int(0...1439)
                var end = chance(10) ? 1440 : int(0...1439)
                if end == start { end = start + 1 }
                ranges.append((start, end))
                words.append(time(start) + "-" + time(end))
            }
            rules.append(FocusHours.Rule(days: days, ranges: ranges))
            parts.append(words.map { $0 }.joined(separator: pick([" ", "  ", "\t"])))
        }
        let text = pick(["", " "]) + parts.joined(separator: pick([";", "; ", " ; "])) + pick(["", ";", " ", "; "])
        return (text, rules)
    }
}
