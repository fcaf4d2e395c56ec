import Foundation
import Testing
@testable import MIGACore
@testable import MIGAStore
@testable import MIGADesktop
@testable import MIGATestSupport

/// The leak watch over a /proc of the test's making: which processes of
/// protected programs went around the pause, and which did not.
@Suite struct LeakWatchTests {
    let proc = TemporaryDirectory()
    /// The programs' files live beside the fake /proc, outside it.
    let files = TemporaryDirectory()

    init() throws {
        // Binaries (no #!), and a script that hands over to a binary.
        for name in ["steam", "DiscordX", "other-steam", "miga", "sh"] { try files.writeProgram("\u{7F}ELF \(name)\n", to: name) }
        try files.writeProgram("#!/bin/sh\nwhile :; do sleep 1; done\n", to: "slow")
        try files.writeProgram("#!/usr/bin/env sh\nwhile :; do sleep 1; done\n", to: "through-env")
        try files.writeProgram("#!/bin/sh -e\nwhile :; do sleep 1; done\n", to: "with-option")
        // A snap's command: a link to the one snap binary that runs every snap.
        try files.writeProgram("\u{7F}ELF snap\n", to: "usr/bin/snap")
        #expect(symlink(files.path + "/usr/bin/snap", files.path + "/snapped") == 0)
        try files.writeProgram("#!/bin/sh\nLIBDIR=\(files.path)/lib\nAPPNAME=chromium\nexec $LIBDIR/$APPNAME $FLAGS \"$@\"\n", to: "chromium")
        try files.writeProgram("\u{7F}ELF chromium\n", to: "lib/chromium")
    }

    /// A process as /proc shows it: its executable, name, environment, stat
    /// line, command line and control group.
    func process(_ pid: Int32, exe: String, comm: String? = nil, environment: [String] = ["HOME=/home/u"], parent: Int32 = 1,
                 cmdline: [String]? = nil, cgroup: String = "0::/user.slice/user-1000.slice/session-2.scope") throws {
        let comm = comm ?? String(exe.split(separator: "/").last ?? "")
        try proc.write(comm + "\n", to: "\(pid)/comm")
        // An absolute `exe` is a real file of this machine (an interpreter); else one of `files`.
        let target = exe.hasPrefix("/") ? exe : files.path + "/" + exe
        try symlink(target, proc.path + "/\(pid)/exe") == 0 ? () : { throw CocoaError(.fileWriteUnknown) }()
        try proc.write(environment.map { $0 + "\0" }.joined(), to: "\(pid)/environ")
        // pid (comm) state ppid … field 22 is the start time.
        let fields = ["S", "\(parent)"] + Array(repeating: "0", count: 17) + ["\(1000 + pid)"] + Array(repeating: "0", count: 10)
        try proc.write("\(pid) (\(comm)) " + fields.joined(separator: " ") + "\n", to: "\(pid)/stat")
        try proc.write((cmdline ?? [exe]).map { $0 + "\0" }.joined(), to: "\(pid)/cmdline")
        try proc.write(cgroup + "\n", to: "\(pid)/cgroup")
    }

    var watch: LeakWatch { LeakWatch(proc: proc.path, uid: getuid()) }

    func watched(_ command: String, files names: [String], loginStarts: [[String]] = []) -> WatchedProgram {
        var program = WatchedProgram(command: command)
        for name in names { program.add(file: files.path + "/" + name) }
        program.loginStarts = loginStarts
        return program
    }

    @Test func a_process_running_a_protected_programs_file_without_the_gateways_mark_is_a_leak_named_by_its_launcher() throws {
        try process(200, exe: "sh", comm: "bash", cmdline: ["bash"])
        try process(300, exe: "steam", parent: 200, cmdline: ["steam", "-silent"])
        try proc.write("cpu 1 2 3\nbtime 1800000000\n", to: "stat")
        let leaks = watch.look(for: [watched("steam", files: ["steam"]), watched("firefox", files: [])])
        #expect(leaks.map(\.program) == ["steam"])
        #expect(leaks.first?.route == .launcher("bash"))
        #expect(leaks.first?.process.pid == 300 && leaks.first?.process.startTicks == 1300)
        #expect(leaks.first?.startedAt == Date(timeIntervalSince1970: 1_800_000_000 + 1300 / Double(LeakWatch.ticksPerSecond)))
    }

    @Test func the_file_decides_not_the_name() throws {
        // Discord's package names its binary DiscordX: found by its file.
        try process(310, exe: "DiscordX", cmdline: ["DiscordX"])
        // Another program that happens to be called steam: not steam's file, no leak.
        try process(320, exe: "other-steam", comm: "steam", cmdline: ["./steam"])
        let leaks = watch.look(for: [watched("discord", files: ["DiscordX"]), watched("steam", files: ["steam"])])
        #expect(leaks.map(\.program) == ["discord"])
    }

    @Test func a_gateway_showing_the_pause_under_the_programs_name_is_not_a_leak() throws {
        // A shim is a link named after the program: the kernel calls the
        // gateway by the program's name while its pause is on screen.
        try process(330, exe: "miga", comm: "steam", cmdline: ["steam"])
        #expect(watch.look(for: [watched("steam", files: ["steam"])]).isEmpty)
    }

    @Test func a_program_started_by_its_path_is_named_by_that_path() throws {
        try process(200, exe: "sh", comm: "bash", cmdline: ["bash"])
        try process(340, exe: "steam", parent: 200, cmdline: ["/snap/bin/steam"])
        #expect(watch.look(for: [watched("steam", files: ["steam"])]).first?.route == .path("/snap/bin/steam"))
    }

    @Test func a_launch_from_the_menu_is_named_as_the_menu_not_as_a_path() throws {
        // gtk-launch still there: its command line names the launch.
        try process(210, exe: "sh", comm: "gtk-launch", cmdline: ["gtk-launch", "steam"])
        try process(380, exe: "steam", parent: 210, cmdline: [files.path + "/steam"])
        // Launched by GLib, which has exited since: the entry it left in the environment.
        try process(381, exe: "steam", environment: ["GIO_LAUNCHED_DESKTOP_FILE=/usr/share/applications/steam.desktop",
                                                    "GIO_LAUNCHED_DESKTOP_FILE_PID=381"], cmdline: [files.path + "/steam"])
        // Typed by its path in a terminal opened from the menu: the terminal's entry, inherited, says nothing of this launch.
        try process(200, exe: "sh", comm: "bash", parent: 150, cmdline: ["bash"])
        try process(382, exe: "steam", environment: ["GIO_LAUNCHED_DESKTOP_FILE=/usr/share/applications/xterm.desktop",
                                                    "GIO_LAUNCHED_DESKTOP_FILE_PID=150"], parent: 200, cmdline: [files.path + "/steam"])
        let leaks = watch.look(for: [watched("steam", files: ["steam"])]).sorted { $0.process.pid < $1.process.pid }
        #expect(leaks.map(\.route) == [.menu("gtk-launch steam"), .menu("/usr/share/applications/steam.desktop"), .path(files.path + "/steam")])
        #expect(leaks.map(\.route.shortName) == ["from the menu", "from the menu", "from " + files.path + "/steam"])
        #expect(leaks[1].route.description == "from the application menu (/usr/share/applications/steam.desktop)")
        #expect(leaks[2].menuEntry == "/usr/share/applications/xterm.desktop")
        #expect(LeakRoute(how: "menu", detail: "gtk-launch steam") == .menu("gtk-launch steam"), "read back from the store")
    }

    @Test func a_script_is_found_as_its_interpreter_running_it_however_its_first_line_names_it() throws {
        try process(200, exe: "sh", comm: "bash", cmdline: ["bash"])
        // Typed by name in a shell: the kernel names the script by the full
        // path it found, which says nothing of the route; the shell does.
        try process(350, exe: "/bin/sh", comm: "slow", parent: 200, cmdline: ["/bin/sh", files.path + "/slow", "--fast"])
        try process(351, exe: "/bin/sh", comm: "slow", cmdline: ["/bin/sh", files.path + "/steam"])   // not this script
        // #!/usr/bin/env sh: env hands over to sh, which the kernel names "sh".
        try process(352, exe: "/bin/sh", comm: "sh", parent: 200, cmdline: ["sh", files.path + "/through-env"])
        // #!/bin/sh -e: the script after the interpreter's option.
        try process(353, exe: "/bin/sh", comm: "with-option", parent: 200, cmdline: ["/bin/sh", "-e", files.path + "/with-option"])
        let leaks = watch.look(for: [watched("slow", files: ["slow"]), watched("through-env", files: ["through-env"]),
                                     watched("with-option", files: ["with-option"])])
            .sorted { $0.process.pid < $1.process.pid }
        #expect(leaks.map(\.process.pid) == [350, 352, 353])
        #expect(leaks.map(\.program) == ["slow", "through-env", "with-option"])
        #expect(leaks.map(\.route) == Array(repeating: .launcher("bash"), count: 3))
    }

    @Test func a_launcher_script_is_watched_by_the_binary_it_hands_over_to_named_by_who_started_the_script() throws {
        try process(200, exe: "sh", comm: "bash", cmdline: ["bash"])
        // Chromium's wrapper execs the real binary by a path of its own.
        try process(360, exe: "lib/chromium", parent: 200, cmdline: [files.path + "/lib/chromium", "--flag"])
        let leaks = watch.look(for: [watched("chromium", files: ["chromium"])])
        #expect(leaks.map(\.process.pid) == [360])
        #expect(leaks.first?.route == .launcher("bash"))
        #expect(WatchedProgram.handedOver(in: "#!/bin/sh\nD=/opt/x\nexec \"${D}/bin/x\" -a\nexec $UNKNOWN/y\n") == ["/opt/x/bin/x"])
    }

    @Test func a_launcher_of_many_programs_is_never_one_of_them() throws {
        // Every snap runs /usr/bin/snap, every Flatpak flatpak, and env anything.
        var snapped = WatchedProgram(command: "snapped")
        snapped.add(file: files.path + "/snapped")
        snapped.add(file: "/usr/bin/env")
        snapped.add(file: "/bin/sh")
        #expect(snapped.executables.isEmpty && snapped.scripts.isEmpty)
        try process(370, exe: "usr/bin/snap", comm: "snap", cmdline: ["/usr/bin/snap", "userd", "--autostart"])
        #expect(watch.look(for: [snapped]).isEmpty)
    }

    @Test func a_login_start_is_named_so() throws {
        let steam = watched("steam", files: ["steam"], loginStarts: [[files.path + "/steam", "-silent"]])
        // Run by systemd's autostart generator: its unit says so.
        try process(360, exe: "steam", cmdline: ["steam", "-silent"],
                    cgroup: "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-steam@autostart.service")
        // Run by a launcher that exited (dex -a), with the login start's exact command line.
        try process(361, exe: "steam", cmdline: [files.path + "/steam", "-silent"])
        // The same command line typed in a shell that is still there: not a login start.
        try process(200, exe: "sh", comm: "bash", cmdline: ["bash"])
        try process(362, exe: "steam", parent: 200, cmdline: [files.path + "/steam", "-silent"])
        let routes = watch.look(for: [steam]).sorted { $0.process.pid < $1.process.pid }.map(\.route)
        #expect(routes == [.login("steam -silent"), .login(files.path + "/steam -silent"), .path(files.path + "/steam")])
    }

    @Test func a_process_the_gateway_started_and_its_children_are_not() throws {
        try process(300, exe: "steam", environment: ["MIGA_GATE_PID=299", "MIGA_GATE_HOPS=1", "MIGA_GATE_PROGRAM=steam"])
        try process(301, exe: "steam", environment: ["MIGA_GATE_PID=299", "MIGA_GATE_PROGRAM=steam"], parent: 300)
        #expect(watch.look(for: [watched("steam", files: ["steam"])]).isEmpty)
    }

    @Test func another_protected_program_started_from_inside_a_gated_one_is_a_leak() throws {
        // Thunderbird went through its pause; a link in it opens the other program by its path.
        try process(500, exe: "DiscordX", environment: ["MIGA_GATE_PID=499", "MIGA_GATE_PROGRAM=discord"])
        try process(501, exe: "steam", environment: ["MIGA_GATE_PID=499", "MIGA_GATE_PROGRAM=discord"], parent: 500,
                    cmdline: [files.path + "/steam"])
        let leaks = watch.look(for: [watched("discord", files: ["DiscordX"]), watched("steam", files: ["steam"])])
        #expect(leaks.map(\.program) == ["steam"])
        #expect(leaks.map(\.process.pid) == [501])
    }

    @Test func the_children_of_a_leaked_process_are_one_leak_and_an_orphan_has_no_route() throws {
        try process(400, exe: "steam", parent: 1, cmdline: ["steam"])
        try process(401, exe: "steam", parent: 400)
        try process(402, exe: "steam", parent: 400)
        let leaks = watch.look(for: [watched("steam", files: ["steam"])])
        #expect(leaks.map(\.process.pid) == [400])
        #expect(leaks.first?.route == .unknown)
    }

    @Test func vanished_unreadable_and_foreign_processes_are_skipped() throws {
        let steam = watched("steam", files: ["steam"])
        try process(600, exe: "steam")
        unlink(proc.path + "/600/environ")            // gone mid-read
        try process(601, exe: "steam")
        #expect(chown(proc.path + "/601", getuid() + 1, getgid()) == 0)   // another user's
        try process(602, exe: "steam")
        unlink(proc.path + "/602/environ")            // not ours to read: a read that fails
        #expect(mkdir(proc.path + "/602/environ", 0o700) == 0)
        try process(603, exe: "steam")
        unlink(proc.path + "/603/exe")                // its executable gone mid-read
        try proc.write("x", to: "self/comm")          // not a pid
        try proc.write("x", to: "0/comm")
        #expect(watch.look(for: [steam]).isEmpty)
        #expect(watch.look(for: []).isEmpty)
        #expect(LeakWatch(proc: proc.path + "/missing").look(for: [steam]).isEmpty)
    }

    @Test func each_leak_is_recorded_once_with_its_route_and_a_launch_through_the_gate_accounts_for_its_process() throws {
        let store = try SessionStore(path: proc.path + "/store.sqlite")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let leak = Leak(program: "steam", process: ProcessIdentity(bootID: "b", pid: 7, startTicks: 9), route: .login("steam -silent"))
        #expect(try store.recordLeaks([leak], at: now) == 1)
        #expect(try store.recordLeaks([leak], at: now.addingTimeInterval(60)) == 0)
        let path = Leak(program: "steam", process: ProcessIdentity(bootID: "b", pid: 8, startTicks: 9), route: .path("/snap/bin/steam"))
        let exited = Leak(program: "steam", process: ProcessIdentity(bootID: "b", pid: 9, startTicks: 9), route: .unknown)
        #expect(try store.recordLeaks([path, exited], at: now) == 2)
        let recorded = try store.leaks(since: now.addingTimeInterval(-1))
        #expect(recorded.map(\.route) == [.login("steam -silent"), .path("/snap/bin/steam"), .unknown])
        #expect(recorded.map(\.route.shortName) == ["at login", "from /snap/bin/steam", "from a launcher that has exited"])
        #expect(LeakRoute(how: nil, detail: "/usr/bin/dex -a").shortName == "from dex", "a row from before routes had kinds")

        // A pass-through at 12:00:00, and a Proceed whose pause ended at 12:05:00.
        let noon = Date(timeIntervalSince1970: 1_800_007_200)
        try store.insertMissing([SessionRecord(id: "p", program: "steam", startedAt: noon, endedAt: noon, outcome: .passthrough),
                                 SessionRecord(id: "q", program: "steam", startedAt: noon.addingTimeInterval(240),
                                               endedAt: noon.addingTimeInterval(300), outcome: .proceed)])
        #expect(try store.launchedThroughGate("steam", around: noon.addingTimeInterval(1)))
        #expect(try store.launchedThroughGate("steam", around: noon.addingTimeInterval(305)), "a wrapper's program, after the Proceed")
        #expect(try !store.launchedThroughGate("steam", around: noon.addingTimeInterval(-30)))
        #expect(try !store.launchedThroughGate("steam", around: noon.addingTimeInterval(3600)))
        #expect(try !store.launchedThroughGate("firefox", around: noon.addingTimeInterval(1)))
    }
}
