import Foundation
import Testing
@testable import MIGAKit
@testable import MIGACore
@testable import MIGATerminal
@testable import MIGADesktop
@testable import MIGATestSupport

@Suite struct AllowanceReminderTests {
    let reminder = AllowanceReminder(programName: "Discord", minutes: 15, due: Date(milliseconds: 1_800_000_900_123),
                                     processID: 4242, executable: "/usr/bin/discord")

    // MARK: Words

    @Test(arguments: [(15.0, "15 minutes"), (1, "1 minute"), (1.5, "1.5 minutes"), (2, "2 minutes"),
                      (0.5, "30 seconds"), (1.0 / 60, "1 second"), (0.001, "1 second"), (1440, "1440 minutes")] as [(Double, String)])
    func the_span_is_said_in_minutes_or_seconds(minutes: Double, words: String) {
        #expect(AllowanceReminder.span(minutes) == words)
    }

    @Test func the_notification_asks_gently_and_says_what_comes_next() {
        #expect(reminder.notification == DesktopNotification(
            summary: "Your 15 minutes with Discord are up — still what you want?",
            body: "The next time you open Discord, the pause comes first."))
        var short = reminder
        short.minutes = 0.5
        #expect(short.notification.summary == "Your 30 seconds with Discord are up — still what you want?")
        short.minutes = 1
        #expect(short.notification.summary == "Your 1 minute with Discord is up — still what you want?")
        short.minutes = 1.5
        #expect(short.notification.summary == "Your 1.5 minutes with Discord are up — still what you want?")
    }

    // MARK: As a command line

    @Test func the_arguments_read_back_as_the_same_reminder() throws {
        #expect(reminder.arguments == ["--due", "1800000900123", "--minutes", "15.0", "--pid", "4242",
                                       "--exe", "/usr/bin/discord", "--name", "Discord"])
        #expect(AllowanceReminder(arguments: reminder.arguments) == reminder)
    }

    @Test func awkward_names_paths_and_fractions_survive_the_round_trip() throws {
        // Each value is one argument, so spaces and dashes inside it are fine.
        let odd = AllowanceReminder(programName: "--Visual Studio Code", minutes: 0.1, due: Date(milliseconds: -5),
                                    processID: 0, executable: "/opt/my apps/code")
        #expect(AllowanceReminder(arguments: odd.arguments) == odd)
    }

    @Test func the_flags_may_come_in_any_order() throws {
        let words = ["--name", "Discord", "--exe", "/usr/bin/discord", "--pid", "4242", "--minutes", "15",
                     "--due", "1800000900123"]
        #expect(AllowanceReminder(arguments: words) == reminder)
    }

    @Test(arguments: [
        [],
        ["--due", "1800000900123", "--minutes", "15", "--pid", "4242", "--exe", "/usr/bin/discord"], // no name
        ["--due", "1800000900123", "--minutes", "15", "--pid", "4242", "--exe", "/usr/bin/discord", "--name"], // no value
        ["--due", "1800000900123", "--minutes", "15", "--pid", "4242", "--exe", "/usr/bin/discord", "--name", "Discord",
         "--extra", "1"],
        ["--due", "1800000900123", "--minutes", "15", "--pid", "4242", "--exe", "/usr/bin/discord", "--name", "Discord",
         "stray"],
        ["--due", "soon", "--minutes", "15", "--pid", "4242", "--exe", "/usr/bin/discord", "--name", "Discord"],
        ["--due", "1800000900123", "--minutes", "fifteen", "--pid", "4242", "--exe", "/usr/bin/discord", "--name", "Discord"],
        ["--due", "1800000900123", "--minutes", "15", "--pid", "99999999999", "--exe", "/usr/bin/discord", "--name", "Discord"],
        ["due", "1800000900123", "--minutes", "15", "--pid", "4242", "--exe", "/usr/bin/discord", "--name", "Discord"],
    ])
    func words_that_are_not_a_reminder_give_nil(words: [String]) {
        #expect(AllowanceReminder(arguments: words) == nil)
    }

    // MARK: Is the program still open

    @Test func this_process_is_running_its_own_executable() throws {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(AllowanceReminder.isRunning(processID: getpid(), executable: executable))
    }

    @Test func a_process_that_has_ended_is_not_running() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        // Reaped by waitUntilExit, so nothing answers to this pid any more.
        #expect(kill(process.processIdentifier, 0) != 0)
        #expect(!AllowanceReminder.isRunning(processID: process.processIdentifier,
                                             executable: "/nonexistent/miga-test/program"))
    }

    @Test func another_process_running_the_executable_counts_when_the_pid_is_unknown() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["5"]
        try process.run()
        defer {
            // SIGKILL: a signal mask inherited from the test runner may hold back SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        // /bin/sleep may be a link (to /usr/bin/sleep): both sides are resolved.
        #expect(AllowanceReminder.isRunning(processID: 0, executable: "/bin/sleep"))
    }

    @Test func the_process_the_gateway_became_counts_while_alive_even_if_an_interpreter_runs_it() throws {
        // A script's process runs its interpreter, not the program's file; exec
        // keeps the gateway's pid, so a live pid is enough.
        let folder = TemporaryDirectory()
        try folder.write("read line\n", to: "wait.sh")
        let script = folder.path + "/wait.sh"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [script]
        // The shell waits on this pipe, so it has no child to leave behind.
        let input = Pipe()
        process.standardInput = input
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        #expect(AllowanceReminder.isRunning(processID: process.processIdentifier, executable: script))
    }

    @Test func a_process_that_ended_but_is_not_yet_reaped_is_not_running() throws {
        // Spawned directly (not with Process, which reaps its children), so it
        // stays a zombie until this test reaps it.
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        // Not `environ`: other tests change TZ while this one runs.
        let environment = steadyEnvironmentEntries().map { strdup($0) } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        #expect(posix_spawn(&pid, "/bin/true", nil, nil, argv, environment) == 0)
        defer {
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        // Wait for it to end, leaving it waitable (a zombie).
        var info = siginfo_t()
        #expect(waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == 0)
        #expect(kill(pid, 0) == 0) // the pid still answers
        #expect(!AllowanceReminder.isRunning(processID: pid, executable: "/nonexistent/miga-test/program"))
    }
}
