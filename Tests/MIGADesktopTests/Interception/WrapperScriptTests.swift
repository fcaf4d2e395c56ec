import Foundation
import Testing
@testable import MIGACore
@testable import MIGADesktop
@testable import MIGATestSupport

/// Launcher scripts that hand over to the real binary, as browsers ship
/// them: the binary started directly is a launch of the program, counted
/// once however many processes it becomes. A script is another package's
/// file: read, never run, and followed only a couple of levels.
@Suite struct WrapperScriptTests {
    let files = TemporaryDirectory()

    /// Debian's /usr/bin/chromium, cut to the lines that matter: a name, a
    /// folder built from it, and an indented `exec` between `if` and `else`.
    var debianChromium: String {
        """
        #!/bin/sh
        # Chromium launcher
        APPNAME=chromium
        GDB=/usr/bin/gdb
        LIBDIR=\(files.path)/usr/lib/$APPNAME
        CHROMIUM_FLAGS=""
        export CHROME_WRAPPER="/usr/bin/$APPNAME"
        if [ $want_debug -eq 1 ] ; then
          $GDB "$LIBDIR/$APPNAME" -x $tmpfile
        else
          if [ $want_temp_profile -eq 0 ] ; then
            exec $LIBDIR/$APPNAME $CHROMIUM_FLAGS "$@"
          else
            $LIBDIR/$APPNAME $CHROMIUM_FLAGS "$@"
          fi
        fi

        """
    }

    init() throws {
        try files.writeProgram("\u{7F}ELF chromium\n", to: "usr/lib/chromium/chromium")
        try files.writeProgram("\u{7F}ELF crashpad\n", to: "usr/lib/chromium/chrome_crashpad_handler")
        try files.writeProgram(debianChromium, to: "usr/bin/chromium")
    }

    @Test func a_debian_style_wrapper_hands_over_to_the_binary_its_exec_line_names() {
        // Every order of expanding LIBDIR and APPNAME: the value of a variable is what it was when assigned.
        for _ in 0..<20 {
            #expect(WatchedProgram.handedOver(in: debianChromium) == [files.path + "/usr/lib/chromium/chromium"])
        }
        var watched = WatchedProgram(command: "chromium")
        watched.add(file: files.path + "/usr/bin/chromium")
        #expect(watched.executables == [FileIdentity(path: files.path + "/usr/lib/chromium/chromium")!])
    }

    @Test func the_binary_started_directly_is_one_launch_around_the_pause_however_many_processes_it_becomes() throws {
        let protectedAt = Date(timeIntervalSince1970: 1_800_000_000)
        let proc = try FakeProc(around: protectedAt)
        let binary = files.path + "/usr/lib/chromium/chromium"
        var watched = WatchedProgram(command: "chromium")
        watched.add(file: files.path + "/usr/bin/chromium")
        // Started by its own path from a shell: the browser, its zygote, two renderers under the zygote, the crash handler.
        try proc.process(200, exe: "/bin/sh", after: 50, cmdline: ["bash"])
        try proc.process(400, exe: binary, after: 60, parent: 200, cmdline: [binary])
        try proc.process(401, exe: binary, after: 60, parent: 400, cmdline: [binary, "--type=zygote"])
        try proc.process(402, exe: binary, after: 61, parent: 401, cmdline: [binary, "--type=renderer"])
        try proc.process(403, exe: binary, after: 61, parent: 401, cmdline: [binary, "--type=renderer"])
        try proc.process(404, exe: files.path + "/usr/lib/chromium/chrome_crashpad_handler", after: 60, parent: 400,
                         cmdline: ["chrome_crashpad_handler"])
        let leaks = proc.watch.look(for: [watched])
        #expect(leaks.map(\.process.pid) == [400])
        #expect(leaks.map(\.program) == ["chromium"])
    }

    @Test func a_wrapper_of_a_wrapper_is_followed_two_levels_and_no_more() throws {
        try files.writeProgram("\u{7F}ELF chrome\n", to: "opt/chrome/chrome")
        try files.writeProgram("#!/bin/bash\nHERE=\(files.path)/opt/chrome\nexec -a \"$0\" \"$HERE/chrome\" \"$@\"\n",
                               to: "opt/chrome/google-chrome")
        try files.writeProgram("#!/bin/sh\nexec \(files.path)/opt/chrome/google-chrome \"$@\"\n", to: "bin/google-chrome")
        var two = WatchedProgram(command: "google-chrome")
        two.add(file: files.path + "/bin/google-chrome")
        #expect(two.executables == [FileIdentity(path: files.path + "/opt/chrome/chrome")!])

        // Three scripts deep (or a script that runs itself): nothing past the second.
        try files.writeProgram("#!/bin/sh\nexec \(files.path)/bin/google-chrome \"$@\"\n", to: "bin/deeper")
        try files.writeProgram("#!/bin/sh\nexec \(files.path)/bin/itself \"$@\"\n", to: "bin/itself")
        for name in ["deeper", "itself"] {
            var watched = WatchedProgram(command: name)
            watched.add(file: files.path + "/bin/" + name)
            #expect(watched.executables.isEmpty, "\(name)")
        }
    }

    @Test func only_an_absolute_executable_file_that_exists_is_taken() throws {
        try files.write("\u{7F}ELF not executable\n", to: "usr/lib/plain")
        for target in ["\(files.path)/usr/lib/plain", "\(files.path)/usr/lib/missing", "relative/chromium", "\(files.path)/usr/lib/chromium"] {
            try files.writeProgram("#!/bin/sh\nexec \(target) \"$@\"\n", to: "bin/wrapper")
            var watched = WatchedProgram(command: "wrapper")
            watched.add(file: files.path + "/bin/wrapper")
            #expect(watched.executables.isEmpty, "\(target)")
        }
    }

    @Test func a_long_script_is_read_only_so_far() throws {
        // An exec line past the first few KiB is never read: the file is another package's and may be anything.
        let padding = String(repeating: "# a comment that goes on and on\n", count: 2_000)
        try files.writeProgram("#!/bin/sh\n" + padding + "exec \(files.path)/usr/lib/chromium/chromium \"$@\"\n", to: "bin/long")
        var watched = WatchedProgram(command: "long")
        watched.add(file: files.path + "/bin/long")
        #expect(watched.executables.isEmpty)
    }

    @Test func a_launcher_that_finds_its_binary_beside_itself_is_followed() throws {
        // Google Chrome's and Brave's: /usr/bin's link to a script in the program's
        // folder, which execs the binary beside its own real path under the name it was called by.
        try files.writeProgram("\u{7F}ELF chrome\n", to: "opt/google/chrome/chrome")
        try files.writeProgram("""
            #!/bin/bash
            export CHROME_WRAPPER="`readlink -f "$0"`"
            HERE="`dirname "$CHROME_WRAPPER"`"
            export LD_LIBRARY_PATH="$HERE:$HERE/lib"
            exec -a "$0" "$HERE/chrome" "$@"

            """, to: "opt/google/chrome/google-chrome")
        try FileManager.default.createDirectory(atPath: files.path + "/usr/bin", withIntermediateDirectories: true)
        #expect(symlink(files.path + "/opt/google/chrome/google-chrome", files.path + "/usr/bin/google-chrome-stable") == 0)
        var watched = WatchedProgram(command: "google-chrome-stable")
        watched.add(file: files.path + "/usr/bin/google-chrome-stable")
        #expect(watched.executables == [FileIdentity(path: files.path + "/opt/google/chrome/chrome")!])
        // Without knowing where the script is, its folder is unknown: nothing is guessed.
        #expect(WatchedProgram.handedOver(in: try #require(WatchedProgram.script(at: files.path + "/usr/bin/google-chrome-stable"))).isEmpty)
    }
}
