import Foundation
import Testing
@testable import MIGACore
@testable import MIGADesktop
@testable import MIGATestSupport

/// An Exec line and the arguments GLib's launcher gives it (run without files).
struct GLibExec: Sendable, CustomTestStringConvertible {
    let exec: String
    let arguments: [ExecArgument]

    init(_ exec: String, _ arguments: [ExecArgument]) {
        self.exec = exec
        self.arguments = arguments
    }

    var testDescription: String { exec.debugDescription }

    /// The table: what `g_shell_parse_argv` and `expand_application_parameters` make of each line.
    static let all: [GLibExec] = [
        GLibExec("distract --profile 'work' %U", [.text("distract"), .text("--profile"), .text("work"), .fieldCode("U")]),
        GLibExec("sh -c 'echo \"a b\"; exit 0'", [.text("sh"), .text("-c"), .text("echo \"a b\"; exit 0")]),
        GLibExec("distract a;b x&y (z) <w> |v ~/notes $HOME *?", [.text("distract"), .text("a;b"), .text("x&y"), .text("(z)"), .text("<w>"),
                                                            .text("|v"), .text("~/notes"), .text("$HOME"), .text("*?")]),
        GLibExec("distract %U %F", [.text("distract"), .fieldCode("U"), .fieldCode("F")]),
        GLibExec("distract %u %d %D %n %N %i %c %k", [.text("distract"), .fieldCode("u"), .fieldCode("d"), .fieldCode("D"), .fieldCode("n"),
                                                   .fieldCode("N"), .fieldCode("i"), .fieldCode("c"), .fieldCode("k")]),
        // A lone % at the very end stays; elsewhere % and the next character go, a space included.
        GLibExec("distract 50%", [.text("distract"), .text("50%")]),
        GLibExec("distract 50% off", [.text("distract"), .text("50off")]),
        GLibExec("distract %z %m %v --x=%m1", [.text("distract"), .text("--x=1")]),
        GLibExec("distract 100%% \"%%u\"", [.text("distract"), .text("100%"), .text("%u")]),
        // Double quotes undo a backslash only before $ ` " \ and a newline.
        GLibExec(#"distract "a\b" "say \"hi\"" "\$HOME" "c\\d""#, [.text("distract"), .text(#"a\b"#), .text(#"say "hi""#), .text("$HOME"), .text(#"c\d"#)]),
        GLibExec("distract \"two\\\nlines\"", [.text("distract"), .text("two\nlines")]),
        // A backslash outside quotes takes the next character as it is; before a newline, nothing.
        GLibExec(#"distract a\ b \'c\' \\d"#, [.text("distract"), .text("a b"), .text("'c'"), .text(#"\d"#)]),
        GLibExec("distract a\\\nb", [.text("distract"), .text("ab")]),
        // # after a space or newline comments out the rest of the line; inside a word it is text.
        GLibExec("distract a#b # the rest\n--after", [.text("distract"), .text("a#b"), .text("--after")]),
        GLibExec("distract\t#tab", [.text("distract"), .text("#tab")]),
        GLibExec("distract \"x y\"'z'w ''", [.text("distract"), .text("x yzw"), .text("")]),
        GLibExec("distract\ta\nb", [.text("distract"), .text("a"), .text("b")]),
        GLibExec(#"distract --x="a"%u --url=%u"#, [.text("distract"), .template("--x=a%u"), .template("--url=%u")]),
        GLibExec("/usr/bin/env MOZ_X=1 /usr/bin/distract --dbus-env", [.text("/usr/bin/env"), .text("MOZ_X=1"), .text("/usr/bin/distract"), .text("--dbus-env")]),
    ]
}

@Suite struct DesktopExecGLibTests {
    @Test(arguments: GLibExec.all)
    func an_exec_line_splits_as_glib_runs_it(line: GLibExec) throws {
        #expect(try DesktopExec.split(line.exec) == line.arguments)
    }

    @Test(arguments: GLibExec.all)
    func the_override_of_an_exec_line_reads_back_as_the_gate_then_the_same_program_and_arguments(line: GLibExec) throws {
        let overrides = DesktopOverrides(paths: XDGPaths(environment: ["HOME": "/home/someone"]), environment: [:], gateway: "/opt/miga/bin/miga")
        let source = try DesktopEntry(text: "[Desktop Entry]\nType=Application\nName=Distract\nExec=\(DesktopEntry.escaped(line.exec))\n")
        #expect(source.value("Exec") == line.exec)
        let override = try overrides.overriding(source, for: "distract")
        let written = try #require(override.value("Exec"))
        let read = try DesktopExec.split(written)
        let gate: [ExecArgument] = ["/opt/miga/bin/miga", "gate", "--window", "--detach", "--as", "distract"].map { .text($0) }
        #expect(read == gate + line.arguments.prefix(1) + [.text("--")] + line.arguments.dropFirst(), "written as \(written.debugDescription)")
    }

    @Test(arguments: [
        ("distract \"open", "the double quote in argument 2 is never closed"),
        ("distract 'open", "the single quote in argument 2 is never closed"),
        ("distract \"--url=%u\"", "argument 2 has the field code %u inside quotes"),
        ("distract '%c'", "argument 2 has the field code %c inside quotes"),
        ("distract \\%f", "argument 2 has the field code %f inside quotes or after a backslash"),
        ("distract --x=a;%u", "argument 2 has the field code %u inside text that needs quoting"),
    ])
    func a_line_that_cannot_be_written_back_the_same_is_refused_with_why(exec: String, says: String) {
        #expect {
            _ = try DesktopExec.split(exec)
        } throws: { error in
            guard let error = error as? DesktopEntryError else { return false }
            return error.line == nil && error.message.contains(says) && !error.message.contains("\n")
        }
    }

    @Test func a_line_that_does_not_split_still_tells_its_program() {
        #expect(DesktopExec.program(in: DesktopExec.words("/usr/bin/distract \"open")) == "/usr/bin/distract")
        #expect(DesktopExec.program(in: DesktopExec.words("env A=1 'distract' 'open")) == "distract")
    }

    @Test func a_service_line_has_no_field_codes_and_its_override_runs_the_gate_then_env() throws {
        // dbus-daemon quotes as GLib does, but a `%` is plain text there.
        #expect(try DesktopExec.split("app 50%% '%u' %c", fieldCodes: false) == [.text("app"), .text("50%%"), .text("%u"), .text("%c")])
        let services = DBusServices(sourceFolders: [], userFolder: "/nowhere", gateway: "/opt/miga/bin/miga")
        let source = try #require(DBusServices.parse("[D-BUS Service]\nName=org.example.A\nExec=/usr/bin/env MOZ_X=1 /usr/bin/distract '50%' --x\n",
                                                     path: "/usr/share/dbus-1/services/org.example.A.service"))
        let text = try #require(services.overriding(source, for: "distract"))
        let written = try #require(DBusServices.parse(text, path: "b.service"))
        #expect(DesktopExec.texts(written.exec, fieldCodes: false) == ["/opt/miga/bin/miga", "gate", "--window", "--detach", "--as", "distract",
                                                                      "/usr/bin/env", "--", "MOZ_X=1", "/usr/bin/distract", "50%", "--x"])
    }
}
