import Foundation
import Testing
@testable import MIGACore
@testable import MIGATerminal
@testable import MIGADesktop
@testable import MIGATestSupport

@Suite struct DesktopEntryTests {
    @Test(arguments: DesktopFixture.all)
    func a_real_world_file_is_written_back_byte_for_byte(fixture: DesktopFixture) throws {
        let entry = try DesktopEntry(text: fixture.text)
        #expect(Array(entry.text.utf8) == Array(fixture.text.utf8))
    }

    @Test func a_file_without_a_final_newline_is_written_back_without_one() throws {
        let text = "# no newline at the end\n[Desktop Entry]\nName=Foo"
        var entry = try DesktopEntry(text: text)
        #expect(entry.text == text)
        entry.setValue("true", for: "Terminal")
        #expect(entry.text == "# no newline at the end\n[Desktop Entry]\nName=Foo\nTerminal=true")
    }

    @Test func groups_and_action_groups_are_listed_in_file_order() throws {
        let firefox = try DesktopEntry(text: DesktopFixture.firefox.text)
        #expect(firefox.groups == ["Desktop Entry", "Desktop Action new-window", "Desktop Action new-private-window"])
        #expect(firefox.actionGroups == ["Desktop Action new-window", "Desktop Action new-private-window"])
        let steam = try DesktopEntry(text: DesktopFixture.steam.text)
        #expect(steam.actionGroups.count == 9)
        #expect(steam.value("Exec", in: "Desktop Action Store") == "/usr/games/steam steam://store")
        let feedReader = try DesktopEntry(text: DesktopFixture.feedReader.text)
        #expect(feedReader.groups == ["Desktop Entry", "X-Feed Reader"])
        #expect(feedReader.actionGroups.isEmpty)
    }

    @Test func the_keys_of_a_group_are_listed_in_file_order_past_comments_and_blank_lines() throws {
        let entry = try DesktopEntry(text: "[Desktop Entry]\nName=A\n# why\nName[de]=B\n\nExec=a\n[Desktop Action x]\nExec=a -x\n[Empty]\n")
        #expect(entry.keys(in: DesktopEntry.mainGroup) == ["Name", "Name[de]", "Exec"])
        #expect(entry.keys(in: "Desktop Action x") == ["Exec"])
        #expect(entry.keys(in: "Empty").isEmpty)
        #expect(entry.keys(in: "No Such Group").isEmpty)
    }

    @Test func keys_are_matched_exactly_so_each_translation_is_its_own_key() throws {
        let firefox = try DesktopEntry(text: DesktopFixture.firefox.text)
        #expect(firefox.value("Name") == "Firefox Web Browser")
        #expect(firefox.value("Name[de]") == "Firefox-Webbrowser")
        #expect(firefox.value("Name[sr@latin]") == "Firefox veb pregledač")
        #expect(firefox.value("Name[it]") == nil)
        #expect(firefox.value("name") == nil)
        #expect(firefox.value("Name", in: "Desktop Action new-window") == "Open a New Window")
        #expect(firefox.value("Name", in: "No Such Group") == nil)
        #expect(firefox.value("StartupWMClass") == "firefox")
        #expect(firefox.value("Actions") == "new-window;new-private-window;")
    }

    @Test func spaces_around_the_equals_sign_belong_to_neither_key_nor_value() throws {
        let entry = try DesktopEntry(text: DesktopFixture.feedReader.text)
        #expect(entry.value("Type") == "Application")
        #expect(entry.value("Name[de]") == "Feedleser")
        #expect(entry.value("Comment[de]") == "Nachrichten lesen, langsam")
        #expect(entry.value("Refresh", in: "X-Feed Reader") == "3600")
        let tabs = try DesktopEntry(text: "[Desktop Entry]\nName\t=\tTabbed \nEmpty=\nSpaces =   \n")
        #expect(tabs.value("Name") == "Tabbed ")
        #expect(tabs.value("Empty") == "")
        #expect(tabs.value("Spaces") == "")
    }

    @Test func values_have_the_string_escapes_undone_and_other_backslashes_kept() throws {
        let entry = try DesktopEntry(text: #"""
            [Desktop Entry]
            Comment=\sleading space, tab\there, two\nlines, CR\r, backslash \\ end
            Keywords=semi\;colon;trailing\
            Odd=\q and \\s stay

            """#)
        #expect(entry.value("Comment") == " leading space, tab\there, two\nlines, CR\r, backslash \\ end")
        #expect(entry.value("Keywords") == "semi\\;colon;trailing\\")
        #expect(entry.value("Odd") == "\\q and \\s stay")
        let feedReader = try DesktopEntry(text: DesktopFixture.feedReader.text)
        #expect(feedReader.value("Comment") == "Read the news, slowly")
        #expect(feedReader.value("Last-Path", in: "X-Feed Reader") == "/home/user\\feeds\n(old)")
    }

    @Test func setting_a_value_rewrites_its_line_where_it_is() throws {
        var entry = try DesktopEntry(text: DesktopFixture.feedReader.text)
        entry.setValue("true", for: "Terminal")
        entry.setValue("feedreader-symbolic", for: "Icon")
        let expected = DesktopFixture.feedReader.text
            .replacingOccurrences(of: "Terminal = false", with: "Terminal = true")
            .replacingOccurrences(of: "Icon=feedreader", with: "Icon=feedreader-symbolic")
        #expect(entry.text == expected)
        #expect(entry.value("Terminal") == "true")
    }

    @Test func set_values_are_escaped_for_the_file() throws {
        var entry = try DesktopEntry(text: "[Desktop Entry]\nName=Foo\n")
        entry.setValue(" two\nlines\twith \\ and \r", for: "Comment")
        #expect(entry.text == "[Desktop Entry]\nName=Foo\nComment=\\stwo\\nlines\\twith \\\\ and \\r\n")
        #expect(entry.value("Comment") == " two\nlines\twith \\ and \r")
        entry.setValue(#"\s is not a space"#, for: "Comment")
        #expect(entry.text.contains(#"Comment=\\s is not a space"#))
        #expect(try DesktopEntry(text: entry.text).value("Comment") == #"\s is not a space"#)
    }

    @Test func any_value_set_is_read_back_unchanged_after_writing_and_parsing() throws {
        var generator = SeededGenerator(seed: 2024)
        let alphabet: [String] = [" ", "  ", "\\", "\\s", "\\n", "\n", "\t", "\r", "=", "#", "[", "]", ";", "\\;",
                                  "a", "Z", "%", "\"", "é", "中", "🙂", "e\u{301}"]
        var entry = try DesktopEntry(text: DesktopFixture.firefox.text)
        let cases = 2000
        for _ in 0..<cases {
            let value = (0..<Int.random(in: 0...10, using: &generator))
                .map { _ in alphabet.randomElement(using: &generator)! }.joined()
            entry.setValue(value, for: "X-MIGA-Note", in: "Desktop Action new-window")
            let reread = try DesktopEntry(text: entry.text)
            #expect(Array(reread.value("X-MIGA-Note", in: "Desktop Action new-window")!.unicodeScalars)
                == Array(value.unicodeScalars), "value \(value.debugDescription)")
            #expect(reread == entry)
        }
        print("a set value was read back unchanged in \(cases) random cases")
    }

    @Test func a_new_key_goes_after_the_last_key_of_its_group() throws {
        var entry = try DesktopEntry(text: DesktopFixture.feedReader.text)
        entry.setValue("true", for: "X-MIGA-Gateway")
        entry.setValue("60", for: "Timeout", in: "X-Feed Reader")
        let lines = entry.text.split(separator: "\n", omittingEmptySubsequences: false)
        let categories = try #require(lines.firstIndex(of: "Categories=Network;News;"))
        // After the group's last key, before the blank lines that end the group.
        #expect(lines[categories + 1] == "X-MIGA-Gateway=true")
        #expect(lines[categories + 2] == "")
        #expect(lines[categories + 3] == "")
        #expect(lines[categories + 4] == "[X-Feed Reader]")
        #expect(lines.suffix(3) == [#"Last-Path=/home/user\\feeds\n(old)"#, "Timeout=60", ""])

        var firefox = try DesktopEntry(text: DesktopFixture.firefox.text)
        firefox.setValue("true", for: "X-MIGA-Gateway", in: "Desktop Action new-window")
        #expect(firefox.text.contains("Exec=/usr/lib/firefox/firefox --new-window %u\nX-MIGA-Gateway=true\n\n[Desktop Action new-private-window]"))
        #expect(firefox.value("X-MIGA-Gateway") == nil)
    }

    @Test func a_key_in_a_group_without_keys_goes_right_after_the_header() throws {
        var entry = try DesktopEntry(text: "[Desktop Entry]\nName=Foo\n\n[X-Empty]\n# nothing yet\n")
        entry.setValue("1", for: "A", in: "X-Empty")
        #expect(entry.text == "[Desktop Entry]\nName=Foo\n\n[X-Empty]\nA=1\n# nothing yet\n")
    }

    @Test func a_missing_group_is_created_at_the_end() throws {
        var entry = try DesktopEntry(text: DesktopFixture.discord.text)
        entry.setValue("gate", for: "Mode", in: "X-MIGA")
        #expect(entry.text == DesktopFixture.discord.text + "\n[X-MIGA]\nMode=gate\n")
        #expect(entry.groups == ["Desktop Entry", "X-MIGA"])
        #expect(entry.value("Mode", in: "X-MIGA") == "gate")

        var bare = try DesktopEntry(text: "[Desktop Entry]\nName=Foo\n\n")
        bare.setValue("b", for: "A", in: "X-Second")
        #expect(bare.text == "[Desktop Entry]\nName=Foo\n\n[X-Second]\nA=b\n")
    }

    @Test func removing_a_value_removes_only_that_line() throws {
        var entry = try DesktopEntry(text: DesktopFixture.firefox.text)
        entry.removeValue(for: "Name")
        entry.removeValue(for: "Exec", in: "Desktop Action new-window")
        entry.removeValue(for: "Nonexistent")
        entry.removeValue(for: "Name", in: "No Such Group")
        let expected = DesktopFixture.firefox.text
            .replacingOccurrences(of: "Name=Firefox Web Browser\n", with: "")
            .replacingOccurrences(of: "Exec=/usr/lib/firefox/firefox --new-window %u\n", with: "")
        #expect(entry.text == expected)
        #expect(entry.value("Name") == nil)
        #expect(entry.value("Name[de]") == "Firefox-Webbrowser")
        #expect(entry.value("Exec", in: "Desktop Action new-private-window") != nil)
    }

    @Test func the_same_key_may_appear_once_in_each_group() throws {
        let entry = try DesktopEntry(text: "[Desktop Entry]\nName=A\nName[de]=B\n[X-Other]\nName=C\n")
        #expect(entry.value("Name") == "A")
        #expect(entry.value("Name", in: "X-Other") == "C")
    }

    @Test(arguments: [
        MalformedFile("Name=Foo\n[Desktop Entry]\n", line: 1, says: #""Name" comes before the first group"#),
        MalformedFile("# comment\n\n[Desktop Entry]\nName=Foo\nthis is not a line\n", line: 5, says: "is not a comment, a group header or a key=value line"),
        MalformedFile("[Desktop Entry]\nType=Application\nName=A\n\n# the command\nIcon=a\nExec=a\nExec=b\n", line: 8,
                      says: #""Exec" appears twice in [Desktop Entry]"#),
        MalformedFile("[Desktop Entry]\nName[de]=A\nName[de] = B\n", line: 3, says: #""Name[de]" appears twice in [Desktop Entry]"#),
        MalformedFile("[Desktop Entry]\nName=A\n[Desktop Action new]\nExec=a\nExec=b\n", line: 5,
                      says: #""Exec" appears twice in [Desktop Action new]"#),
        MalformedFile("# comment\n[X-Foo]\nA=1\n[Desktop Entry]\nName=Foo\n", line: 2, says: "the first group must be [Desktop Entry], not [X-Foo]"),
        MalformedFile("[Desktop Entry]\nName=A\n[X-Foo]\n[X-Foo]\n", line: 4, says: "the group [X-Foo] appears twice (first on line 3)"),
        MalformedFile("# only a comment\n", line: nil, says: "there is no [Desktop Entry] group"),
        MalformedFile("", line: nil, says: "there is no [Desktop Entry] group"),
        MalformedFile("[Desktop Entry]\n  Name=Foo\n", line: 2, says: "starts with whitespace"),
        MalformedFile("[Desktop Entry]\nName=Foo\n   \n", line: 3, says: "starts with whitespace"),
        MalformedFile("[Desktop Entry]\r\nName=Foo\r\n", line: 1, says: "carriage return"),
        MalformedFile("[Desktop Entry]\nName=Foo\nFoo_Bar=1\n", line: 3, says: #""Foo_Bar" is not a valid key"#),
        MalformedFile("[Desktop Entry]\nName [de]=Foo\n", line: 2, says: "is not a valid key"),
        MalformedFile("[Desktop Entry]\nName[]=Foo\n", line: 2, says: "is not a valid key"),
        MalformedFile("[Desktop Entry]\n=Foo\n", line: 2, says: "is not a valid key"),
        MalformedFile("[Desktop Entry\nName=Foo\n", line: 1, says: "is not a valid group header"),
        MalformedFile("[Desktop Entry] \nName=Foo\n", line: 1, says: "is not a valid group header"),
        MalformedFile("[Desktop Entry]\nName=Foo\n[X-Bad[Name]]\n", line: 3, says: "is not a valid group header"),
        MalformedFile("\u{FEFF}[Desktop Entry]\nName=Foo\n", line: 1, says: "is not a comment, a group header or a key=value line"),
    ])
    func a_malformed_file_is_refused_naming_the_line(file: MalformedFile) {
        #expect {
            _ = try DesktopEntry(text: file.text)
        } throws: { error in
            guard let error = error as? DesktopEntryError else { return false }
            return error.line == file.line && error.message.contains(file.says)
        }
    }

    @Test func the_error_description_starts_with_the_line() {
        #expect(DesktopEntryError(line: 7, message: #""Exec" appears twice in [Desktop Entry]"#).description
            == #"line 7: "Exec" appears twice in [Desktop Entry]"#)
        #expect(DesktopEntryError(message: "there is no [Desktop Entry] group").description == "there is no [Desktop Entry] group")
        do {
            _ = try DesktopEntry(text: "[Desktop Entry]\nType=Application\nName=A\n\n# the command\nIcon=a\nExec=a\nExec=b\n")
            Issue.record("a duplicate key was accepted")
        } catch {
            #expect(error.description == #"line 8: "Exec" appears twice in [Desktop Entry]"#)
        }
    }
}

@Suite struct DesktopEntryExecTests {
    @Test func the_exec_lines_of_real_files_split_into_their_arguments() throws {
        func arguments(_ fixture: DesktopFixture, in group: String = DesktopEntry.mainGroup) throws -> [ExecArgument] {
            try DesktopExec.split(try #require(DesktopEntry(text: fixture.text).value("Exec", in: group)))
        }
        #expect(try arguments(.firefox) == [.text("/usr/lib/firefox/firefox"), .fieldCode("u")])
        #expect(try arguments(.firefox, in: "Desktop Action new-private-window")
            == [.text("/usr/lib/firefox/firefox"), .text("--private-window"), .fieldCode("u")])
        #expect(try arguments(.spotifyFlatpak) == [
            .text("/usr/bin/flatpak"), .text("run"), .text("--branch=stable"), .text("--arch=x86_64"),
            .text("--command=spotify"), .text("--file-forwarding"), .text("com.spotify.Client"),
            .text("@@u"), .fieldCode("U"), .text("@@"),
        ])
        #expect(try arguments(.steam) == [.text("/usr/games/steam"), .fieldCode("U")])
        #expect(try arguments(.steam, in: "Desktop Action News")
            == [.text("/usr/games/steam"), .text("steam://openurl/https://store.steampowered.com/news")])
        #expect(try arguments(.discord) == [
            .text("env"), .text("DISCORD_SKIP_HOST_UPDATE=1"), .text("/usr/share/discord/Discord"),
            .text("--enable-features=UseOzonePlatform"), .text("--ozone-platform-hint=auto"), .fieldCode("U"),
        ])
        #expect(try arguments(.feedReader) == [.text("/usr/bin/feedreader"), .text("--profile=default"), .fieldCode("u")])
        #expect(try arguments(.fractal) == [.text("fractal"), .fieldCode("u")])
        #expect(try arguments(.tinyGames) == [
            .text("/opt/Tiny Games/launcher"), .text("--data"), .text("/opt/Tiny Games/data files"),
            .text(#"--motto=say "hi" for $5"#), .fieldCode("f"),
        ])
        #expect(try arguments(.progressTimer)
            == [.text("/usr/bin/progress-timer"), .text("--label=100%"), .text("--format=%H:%M"), .fieldCode("F")])
    }

    @Test(arguments: DesktopFixture.all)
    func joining_the_arguments_of_a_real_exec_line_gives_one_that_splits_the_same(fixture: DesktopFixture) throws {
        let entry = try DesktopEntry(text: fixture.text)
        for group in entry.groups {
            guard let exec = entry.value("Exec", in: group) else { continue }
            let arguments = try DesktopExec.split(exec)
            #expect(try DesktopExec.split(DesktopExec.join(arguments)) == arguments, "\(fixture.name) [\(group)]")
        }
    }

    @Test func plain_arguments_are_joined_as_they_were_written() throws {
        let exec = "/usr/bin/flatpak run --branch=stable --arch=x86_64 --command=spotify --file-forwarding com.spotify.Client @@u %U @@"
        #expect(DesktopExec.join(try DesktopExec.split(exec)) == exec)
        #expect(DesktopExec.join(try DesktopExec.split("/usr/bin/progress-timer --label=100%% --format=%%H:%%M %F"))
            == "/usr/bin/progress-timer --label=100%% --format=%%H:%%M %F")
    }

    @Test func runs_of_spaces_separate_arguments_and_empty_quotes_are_an_argument() throws {
        #expect(try DesktopExec.split("  foo   bar  ") == [.text("foo"), .text("bar")])
        #expect(try DesktopExec.split("") == [])
        #expect(try DesktopExec.split("   ") == [])
        #expect(try DesktopExec.split(#"foo "" bar"#) == [.text("foo"), .text(""), .text("bar")])
        #expect(DesktopExec.join([.text("foo"), .text(""), .text("bar")]) == #"foo "" bar"#)
    }

    @Test func quoted_arguments_keep_spaces_and_undo_their_backslashes() throws {
        #expect(try DesktopExec.split(#""a b" "say \"hi\"" "\`cmd\`" "\$HOME" "back\\slash" "it's; <ok> & (fine)?""#) == [
            .text("a b"), .text(#"say "hi""#), .text("`cmd`"), .text("$HOME"), .text(#"back\slash"#),
            .text("it's; <ok> & (fine)?"),
        ])
        // Quoted parts join the unquoted text around them, as desktop-file-validate accepts.
        #expect(try DesktopExec.split(#"env WINEPREFIX="/home/a b/.wine" "x"y"z""#)
            == [.text("env"), .text("WINEPREFIX=/home/a b/.wine"), .text("xyz")])
    }

    @Test func the_program_a_command_line_runs_is_found_past_env_its_options_and_assignments() {
        #expect(DesktopExec.program(in: ["/usr/bin/discord", "--x"]) == "/usr/bin/discord")
        #expect(DesktopExec.program(in: ["env", "GDK_BACKEND=x11", "firefox", "%u"]) == "firefox")
        #expect(DesktopExec.program(in: ["/usr/bin/env", "-S", "bash", "-e"]) == "bash")
        #expect(DesktopExec.program(in: ["env", "A=1"]) == nil)
        #expect(DesktopExec.program(in: []) == nil)
    }

    @Test func percent_signs_are_doubled_outside_and_inside_quotes() throws {
        #expect(try DesktopExec.split("%%") == [.text("%")])
        #expect(try DesktopExec.split("a%%b %%u") == [.text("a%b"), .text("%u")])
        #expect(try DesktopExec.split(#""100%% sure" "%%u""#) == [.text("100% sure"), .text("%u")])
        #expect(DesktopExec.join([.text("%u"), .text("100% sure")]) == #"%%u "100%% sure""#)
    }

    @Test func field_codes_stand_alone_or_are_kept_in_templates() throws {
        #expect(try DesktopExec.split("app %f %i %c %k") == [.text("app"), .fieldCode("f"), .fieldCode("i"), .fieldCode("c"), .fieldCode("k")])
        // GLib expands %d %D %n %N from the files, as %f %F; %v and %m it drops.
        #expect(try DesktopExec.split("app %d %D %n %N %v %m") == "dDnN".map { .fieldCode($0) }.reduce([.text("app")]) { $0 + [$1] })
        #expect(try DesktopExec.split("app --url=%u --name=%c%%%k")
            == [.text("app"), .template("--url=%u"), .template("--name=%c%%%k")])
        #expect(DesktopExec.join([.text("app"), .template("--url=%u"), .fieldCode("i")]) == "app --url=%u %i")
    }

    @Test(arguments: [
        InvalidExec(#"foo "bar"#, says: "the double quote in argument 2 is never closed"),
        InvalidExec(#"foo "bar\"#, says: "the double quote in argument 2 is never closed"),
        InvalidExec(#"foo "bar\""#, says: "the double quote in argument 2 is never closed"),
        InvalidExec("foo 'a b", says: "the single quote in argument 2 is never closed"),
        InvalidExec(#"foo --x="a%u""#, says: "argument 2 has the field code %u inside quotes"),
        InvalidExec("foo a;%u", says: "argument 2 has the field code %u inside text that needs quoting"),
        InvalidExec("foo 50%é", says: "the command line has a \"%\" before U+00E9"),
    ])
    func an_invalid_command_line_is_refused(exec: InvalidExec) {
        #expect {
            _ = try DesktopExec.split(exec.text)
        } throws: { error in
            guard let error = error as? DesktopEntryError else { return false }
            return error.line == nil && error.message.contains(exec.says)
        }
    }

    @Test func join_quotes_only_what_needs_quoting() {
        #expect(DesktopExec.join([.text("/usr/bin/app"), .text("--flag=é中"), .text("a b"), .text("it's"), .text(#"a\b"#),
                                  .text("$HOME"), .text(#"say "hi""#), .text("`x`"), .text("tab\there")])
            == #"/usr/bin/app --flag=é中 "a b" "it's" "a\\b" "\$HOME" "say \"hi\"" "\`x\`" "# + "\"tab\there\"")
        for reserved in " \t\n\"'\\><~|&;$*?#()`" {
            #expect(DesktopExec.join([.text("a\(reserved)b")]).hasPrefix("\""), "\(reserved.debugDescription) is reserved")
        }
    }

    @Test func a_backslash_in_a_quoted_argument_is_four_backslashes_in_the_file() throws {
        var entry = try DesktopEntry(text: "[Desktop Entry]\nName=Foo\nExec=foo\n")
        entry.setValue(DesktopExec.join([.text("/opt/miga/bin/miga"), .text(#"C:\dir"#), .text("$5"), .text(#"say "hi""#)]), for: "Exec")
        #expect(entry.text.contains(#"Exec=/opt/miga/bin/miga "C:\\\\dir" "\\$5" "say \\"hi\\"""#))
        let reread = try DesktopEntry(text: entry.text)
        #expect(try DesktopExec.split(try #require(reread.value("Exec")))
            == [.text("/opt/miga/bin/miga"), .text(#"C:\dir"#), .text("$5"), .text(#"say "hi""#)])
    }

    @Test func split_reads_back_whatever_join_writes() throws {
        var generator = SeededGenerator(seed: 1_500)
        let pieces: [String] = Array(" \t\n\"'\\><~|&;$*?#()`").map(String.init) + [
            "%", "%%", "%u", "a", "Z", "0", "-", "=", "/", "@@", "é", "中", "🙂", "e\u{301}", "\u{301}", "\\\\", "\\\"",
        ]
        let safe = ["a", "-", "=", "/", "é", "x9", "%%"]
        let cases = 5000
        for _ in 0..<cases {
            var targetUsed = false
            func fieldCode() -> Character {
                // GLib drops %v and %m as it reads: they are never written.
                let codes: [Character] = targetUsed ? ["i", "c", "k", "d", "D", "n", "N"] : Array("fFuUickdDnN")
                let code = codes.randomElement(using: &generator)!
                if "fFuU".contains(code) { targetUsed = true }
                return code
            }
            var arguments: [ExecArgument] = []
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0:
                    arguments.append(.fieldCode(fieldCode()))
                case 1:
                    let before = (0..<Int.random(in: 1...3, using: &generator)).map { _ in safe.randomElement(using: &generator)! }.joined()
                    let after = (0..<Int.random(in: 0...2, using: &generator)).map { _ in safe.randomElement(using: &generator)! }.joined()
                    arguments.append(.template(before + "%\(fieldCode())" + after))
                default:
                    let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
                    arguments.append(.text(text))
                }
            }
            let joined = DesktopExec.join(arguments)
            #expect(try DesktopExec.split(joined) == arguments, "joined as \(joined.debugDescription)")
            // And through the file, with the string escapes on top.
            var entry = try DesktopEntry(text: "[Desktop Entry]\nName=Foo\n")
            entry.setValue(joined, for: "Exec")
            #expect(try DesktopEntry(text: entry.text).value("Exec") == joined)
        }
        print("split(join(arguments)) == arguments held for \(cases) random argument lists")
    }
}

@Suite struct DesktopEntryValidationTests {
    /// What MIGA does to a launcher: every Exec through the gateway (with an
    /// argument that needs every kind of quoting), a terminal for the pause, and
    /// a mark to find its own files by.
    static func gatewayed(_ fixture: DesktopFixture) throws -> String {
        var entry = try DesktopEntry(text: fixture.text)
        for group in entry.groups where entry.value("Exec", in: group) != nil {
            entry.setValue(DesktopExec.join([
                .text("/opt/miga/bin/miga"), .text("gate"), .text("--"), .text("/usr/lib/firefox/firefox"),
                .text(#"it's a "test" $HOME"#), .fieldCode("u"),
            ]), for: "Exec", in: group)
        }
        entry.setValue("true", for: "Terminal")
        entry.setValue("true", for: "X-MIGA-Gateway")
        return entry.text
    }

    @Test(arguments: DesktopFixture.all)
    func a_gatewayed_file_passes_desktop_file_validate(fixture: DesktopFixture) throws {
        let directory = TemporaryDirectory()
        try directory.write(fixture.text, to: "original/\(fixture.name).desktop")
        try directory.write(try Self.gatewayed(fixture), to: "gatewayed/\(fixture.name).desktop")
        let original = try validate(directory.path + "/original/\(fixture.name).desktop")
        let gatewayed = try validate(directory.path + "/gatewayed/\(fixture.name).desktop")
        #expect(original.status == 0, "\(original.diagnostics)")
        #expect(gatewayed.status == 0, "\(gatewayed.diagnostics)")
        #expect(!gatewayed.diagnostics.contains { $0.contains("error:") })
        // Anything the tool still says is about the fixture's own content
        // (Steam's deprecated X-KDE-RunOnDiscreteGpu), never about the change.
        #expect(gatewayed.diagnostics == original.diagnostics)
        let allowed = fixture.name == "steam" ? 2 : 0
        #expect(original.diagnostics.count == allowed, "\(original.diagnostics)")
    }

    @Test func the_gatewayed_exec_reads_back_as_the_arguments_written() throws {
        let entry = try DesktopEntry(text: try Self.gatewayed(.firefox))
        #expect(entry.text.contains(#"Exec=/opt/miga/bin/miga gate -- /usr/lib/firefox/firefox "it's a \\"test\\" \\$HOME" %u"#))
        for group in entry.groups {
            #expect(try DesktopExec.split(try #require(entry.value("Exec", in: group))).last == .fieldCode("u"))
        }
        #expect(entry.value("Terminal") == "true")
        #expect(entry.value("X-MIGA-Gateway") == "true")
    }

    /// desktop-file-validate's status and what it said, one line each, with the
    /// path taken out so that two copies of a file compare equal.
    private func validate(_ path: String) throws -> (status: Int32, diagnostics: [String]) {
        let result = try runToCompletion("/usr/bin/desktop-file-validate", [path])
        let diagnostics = result.output.split(separator: "\n").map { $0.replacingOccurrences(of: path, with: "FILE") }
        return (result.status, diagnostics)
    }
}

// MARK: - Support

struct MalformedFile: Sendable, CustomTestStringConvertible {
    let text: String
    let line: Int?
    let says: String

    init(_ text: String, line: Int?, says: String) {
        self.text = text
        self.line = line
        self.says = says
    }

    var testDescription: String { text.debugDescription }
}

struct InvalidExec: Sendable, CustomTestStringConvertible {
    let text: String
    let says: String

    init(_ text: String, says: String) {
        self.text = text
        self.says = says
    }

    var testDescription: String { text.debugDescription }
}

struct SpawnFailure: Error, CustomStringConvertible {
    let program: String
    let code: Int32
    var description: String { "cannot start \(program): \(String(cString: strerror(code)))" }
}

/// Runs a program to its end: its exit status, and standard output and error
/// together, read while it runs so that a full pipe cannot stall it.
func runToCompletion(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    var output: [Int32] = [-1, -1]
    guard pipe(&output) == 0 else { throw SpawnFailure(program: program, code: errno) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    posix_spawn_file_actions_adddup2(&actions, output[1], 2)
    posix_spawn_file_actions_addclose(&actions, output[0])
    posix_spawn_file_actions_addclose(&actions, output[1])

    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    // Not `environ`: other tests change TZ while this one runs.
    let environment = steadyEnvironmentEntries().map { strdup($0) } + [nil]
    defer { (argv + environment).forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, program, &actions, nil, argv, environment)
    close(output[1])
    guard spawned == 0 else {
        close(output[0])
        throw SpawnFailure(program: program, code: spawned)
    }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(output[0], &buffer, buffer.count)
        if count > 0 {
            bytes += buffer[0..<count]
        } else if count == 0 || errno != EINTR {
            break
        }
    }
    close(output[0])
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return (exitStatus, String(decoding: bytes, as: UTF8.self))
}

/// A real-world-shaped desktop entry file, written to disk as `name.desktop`.
struct DesktopFixture: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String

    /// `lines` as a Swift literal has no newline after its last line; files on disk do.
    init(name: String, lines: String) {
        self.name = name
        text = lines + "\n"
    }

    var testDescription: String { name }

    static let all: [DesktopFixture] = [firefox, spotifyFlatpak, steam, discord, feedReader, fractal, tinyGames, progressTimer]

    static let firefox = DesktopFixture(name: "firefox", lines: #"""
        [Desktop Entry]
        Version=1.0
        Name=Firefox Web Browser
        Name[de]=Firefox-Webbrowser
        Name[fr]=Navigateur Web Firefox
        Name[ja]=Firefox ウェブ・ブラウザ
        Name[pt_BR]=Navegador Web Firefox
        Name[sr@latin]=Firefox veb pregledač
        Comment=Browse the World Wide Web
        Comment[de]=Im Internet surfen
        Comment[fr]=Naviguer sur le Web
        Comment[ja]=ウェブを閲覧します
        Comment[pt_BR]=Navegue na Internet
        GenericName=Web Browser
        GenericName[de]=Webbrowser
        GenericName[fr]=Navigateur Web
        Keywords=Internet;WWW;Browser;Web;Explorer;
        Keywords[de]=Internet;WWW;Browser;Web;Explorer;Webseite;Site;surfen;online;browsen;
        Exec=/usr/lib/firefox/firefox %u
        Icon=firefox
        Terminal=false
        Type=Application
        MimeType=text/html;text/xml;application/xhtml+xml;application/vnd.mozilla.xul+xml;x-scheme-handler/http;x-scheme-handler/https;
        Categories=Network;WebBrowser;
        StartupNotify=true
        StartupWMClass=firefox
        Actions=new-window;new-private-window;

        [Desktop Action new-window]
        Name=Open a New Window
        Name[de]=Ein neues Fenster öffnen
        Name[fr]=Ouvrir une nouvelle fenêtre
        Exec=/usr/lib/firefox/firefox --new-window %u

        [Desktop Action new-private-window]
        Name=Open a New Private Window
        Name[de]=Ein neues privates Fenster öffnen
        Name[fr]=Ouvrir une nouvelle fenêtre de navigation privée
        Exec=/usr/lib/firefox/firefox --private-window %u
        """#)

    static let spotifyFlatpak = DesktopFixture(name: "com.spotify.Client", lines: #"""
        [Desktop Entry]
        Type=Application
        Name=Spotify
        GenericName=Music Player
        Comment=Listen to music and podcasts
        Icon=com.spotify.Client
        Exec=/usr/bin/flatpak run --branch=stable --arch=x86_64 --command=spotify --file-forwarding com.spotify.Client @@u %U @@
        Terminal=false
        MimeType=x-scheme-handler/spotify;
        Categories=Audio;Music;Player;AudioVideo;
        StartupWMClass=spotify
        X-Flatpak-RenamedFrom=spotify.desktop;
        X-Flatpak=com.spotify.Client
        """#)

    static let steam = DesktopFixture(name: "steam", lines: #"""
        [Desktop Entry]
        Name=Steam
        Comment=Application for managing and playing games on Steam
        Comment[pt_BR]=Aplicativo para jogar e gerenciar jogos no Steam
        Comment[bg]=Приложение за ръководене и пускане на игри в Steam
        Comment[zh_CN]=管理和进行 Steam 游戏的应用程序
        Exec=/usr/games/steam %U
        Icon=steam
        Terminal=false
        Type=Application
        Categories=Network;FileTransfer;Game;
        MimeType=x-scheme-handler/steam;x-scheme-handler/steamlink;
        Actions=Store;Community;Library;Servers;Screenshots;News;Settings;BigPicture;Friends;
        PrefersNonDefaultGPU=true
        X-KDE-RunOnDiscreteGpu=true

        [Desktop Action Store]
        Name=Store
        Name[de]=Shop
        Exec=/usr/games/steam steam://store

        [Desktop Action Community]
        Name=Community
        Exec=/usr/games/steam steam://url/CommunityHome/

        [Desktop Action Library]
        Name=Library
        Name[de]=Bibliothek
        Exec=/usr/games/steam steam://open/games

        [Desktop Action Servers]
        Name=Servers
        Exec=/usr/games/steam steam://open/servers

        [Desktop Action Screenshots]
        Name=Screenshots
        Exec=/usr/games/steam steam://open/screenshots

        [Desktop Action News]
        Name=News
        Exec=/usr/games/steam steam://openurl/https://store.steampowered.com/news

        [Desktop Action Settings]
        Name=Settings
        Exec=/usr/games/steam steam://open/settings

        [Desktop Action BigPicture]
        Name=Big Picture
        Exec=/usr/games/steam steam://open/bigpicture

        [Desktop Action Friends]
        Name=Friends
        Exec=/usr/games/steam steam://open/friends
        """#)

    static let discord = DesktopFixture(name: "discord", lines: #"""
        [Desktop Entry]
        Name=Discord
        StartupWMClass=discord
        Comment=All-in-one voice and text chat for gamers that's free, secure, and works on both your desktop and phone.
        GenericName=Internet Messenger
        TryExec=/usr/share/discord/Discord
        Exec=env DISCORD_SKIP_HOST_UPDATE=1 /usr/share/discord/Discord --enable-features=UseOzonePlatform --ozone-platform-hint=auto %U
        Icon=discord
        Type=Application
        Categories=Network;InstantMessaging;
        Path=/usr/share/discord
        MimeType=x-scheme-handler/discord;
        """#)

    static let feedReader = DesktopFixture(name: "feedreader", lines: #"""
        # A hand-written launcher, for a reader that likes room to breathe.
        # Comments and blank lines stay where they are.

        [Desktop Entry]
        Type = Application
        Name = Feed Reader
        Name[de] = Feedleser
        Comment = Read the news,\sslowly
        Comment[de] =  Nachrichten lesen, langsam

        # The command itself.
        Exec = /usr/bin/feedreader --profile=default %u
        Icon=feedreader
        Terminal = false
        Categories=Network;News;


        [X-Feed Reader]
        # Private to the program; other readers ignore X- groups.
        Refresh = 3600
        Last-Path=/home/user\\feeds\n(old)
        """#)

    static let fractal = DesktopFixture(name: "org.gnome.Fractal", lines: #"""
        [Desktop Entry]
        Name=Fractal
        Comment=Chat on Matrix
        Icon=org.gnome.Fractal
        Exec=fractal %u
        Terminal=false
        Type=Application
        Categories=GNOME;GTK;Network;Chat;InstantMessaging;
        Keywords=Matrix;Chat;Messaging;
        StartupNotify=true
        DBusActivatable=true
        MimeType=x-scheme-handler/matrix;
        """#)

    static let tinyGames = DesktopFixture(name: "tiny-games", lines: #"""
        [Desktop Entry]
        Type=Application
        Name=Tiny Games
        Comment=Small games for short breaks
        Exec="/opt/Tiny Games/launcher" --data "/opt/Tiny Games/data files" "--motto=say \\"hi\\" for \\$5" %f
        Icon=/opt/Tiny Games/icon.png
        Terminal=false
        Categories=Game;ArcadeGame;
        """#)

    static let progressTimer = DesktopFixture(name: "progress-timer", lines: #"""
        [Desktop Entry]
        Type=Application
        Name=Progress Timer
        Comment=Shows how far along the day is
        Exec=/usr/bin/progress-timer --label=100%% --format=%%H:%%M %F
        Icon=progress-timer
        Terminal=false
        Categories=Utility;Clock;
        """#)
}
