#!/usr/bin/env python3
"""MIGA's benchmark: start-up, pass-through and memory, beside baselines
measured in the same run on the same machine. Prints medians; asserts nothing.

    python3 Benchmarks/bench.py .build/release/miga

- first frame: from spawning `miga gate` on a real pseudo terminal (80x24)
  until the end of its first full frame (the synchronized-update end,
  ESC [ ? 2026 l) arrives on the terminal; the terminal is then closed, as a
  window is, and the gateway leaves as it does then (the pause recorded as
  abandoned, in the benchmark's own home).
- pass-through: `miga gate true` without a terminal (it records the launch
  and execs /bin/true) against spawning /bin/true directly.
- asking the background: the first frame waits for the terminal's answer
  to OSC 11 and DA1 (the pty here answers as xterm does); the same with
  a terminal that answers DA1 only (as tmux does), and with COLORFGBG set
  or 16 colours, where nothing is asked, give the question's cost.
- miga init zsh: printing the shell hook, which every new shell runs.
- first frame, 20 000 quotes: the same, with a quote file of 20 000 entries
  of the person's own (a big fortune collection imported) beside the
  built-in bank; the ratio to the built-in bank alone is the figure.
- miga stats: stores seeded with 10 000, 100 000 and 1 000 000 sessions
  over 1500 days (Benchmarks/seed.py), output to /dev/null.
- exit path: from an "e" typed once the first frame is on the pseudo
  terminal to the end of the gateway's process (the shell's terminal back);
  `MIGA_BENCH_ONLY=exit-path` measures only this, beside /bin/true and any
  other builds given as label=path after the binary.
- the binary: its size installed (stripped, as `make install` writes it),
  whether it is position-independent, and how many relocations the loader
  applies as it starts (`readelf -r`).
- before: with builds given as label=path after the binary (`make bench
  BEFORE=path`, an earlier release, say), their size, relocations, first
  frame, pass-through and `miga init zsh`, interleaved with this build's.
- peak memory: the maximum resident set size GNU time reports for the
  gateway (measured in separate runs; a child spawned straight from Python
  would report Python's own high-water mark).
- syncs: the fdatasync and fsync calls of a launch that leaves after its
  first frame (its terminal closed), as `strace -f -c -e
  trace=fdatasync,fsync` counts them, over launches in a row into one store
  (the store at rest between them, as a person's is), and how many came
  before the frame was written (the same calls in order, `strace -C`); for a
  brand-new store too, and for builds given as label=path.
"""
import fcntl
import importlib.util
import os
import platform
import shutil
import statistics
import subprocess
import struct
import sys
import tempfile
import termios
import time

FRAME_END = b"\x1b[?2026l"
EXIT_ROW = "exit path: e to the gateway's end (pty)"


def spawn_and_wait(argv, env):
    """Seconds from spawn to exit, with no terminal."""
    actions = [(os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
               (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
               (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0)]
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=actions)
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{argv} failed with {status}")
    return elapsed


# What a terminal says when asked for its background (OSC 11) and its
# device attributes (DA1): xterm's answers for a white background.
OSC11_QUESTION, DA1_QUESTION = b"\x1b]11;?", b"\x1b[c"
OSC11_ANSWER, DA1_ANSWER = b"\x1b]11;rgb:ffff/ffff/ffff\x1b\\", b"\x1b[?64;1;2;6;9;15;16;17;18;21;22;28c"


def first_frame(argv, env, answers=("osc11", "da1")):
    """Seconds until the first full frame is on the terminal, which answers
    the questions named in `answers` as a terminal emulator would."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    # Spawned like the other rows (no fork of this Python process, whose size
    # would be part of the figure), in a session of its own on the terminal.
    actions = [(os.POSIX_SPAWN_DUP2, slave, 0), (os.POSIX_SPAWN_DUP2, slave, 1),
               (os.POSIX_SPAWN_DUP2, slave, 2), (os.POSIX_SPAWN_CLOSE, master)]
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=actions, setsid=True)
    os.close(slave)
    seen = b""
    drawn = None
    asked = False
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
        if DA1_QUESTION in seen and not asked:
            # Answered in the order asked, as a terminal does.
            asked = True
            reply = (OSC11_ANSWER if "osc11" in answers and OSC11_QUESTION in seen else b"") \
                + (DA1_ANSWER if "da1" in answers else b"")
            if reply:
                os.write(master, reply)
        if drawn is None and FRAME_END in seen:
            drawn = time.perf_counter() - start
            break
    # The window closed: the gateway hears the hang-up and leaves.
    os.close(master)
    _, status = os.waitpid(pid, 0)
    if drawn is None:
        sys.exit(f"no frame was drawn (status {status}): {seen[-300:]!r}")
    return drawn


def exit_path(argv, env):
    """Seconds from Exit to Focus (an "e" typed once the first frame is on
    the terminal) until the gateway's process has ended and the shell would
    have its terminal back."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    actions = [(os.POSIX_SPAWN_DUP2, slave, 0), (os.POSIX_SPAWN_DUP2, slave, 1),
               (os.POSIX_SPAWN_DUP2, slave, 2), (os.POSIX_SPAWN_CLOSE, master)]
    pid = os.posix_spawn(argv[0], argv, env, file_actions=actions, setsid=True)
    os.close(slave)
    seen = b""
    asked = False
    chosen = None
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
        if DA1_QUESTION in seen and not asked:
            asked = True
            os.write(master, (OSC11_ANSWER if OSC11_QUESTION in seen else b"") + DA1_ANSWER)
        if chosen is None and FRAME_END in seen:
            # A moment after the frame, as no hand is quicker: keys that
            # come before the first frame is on screen are no choices.
            time.sleep(0.05)
            os.write(master, b"e")
            chosen = time.perf_counter()
    _, status = os.waitpid(pid, 0)
    ended = time.perf_counter()
    os.close(master)
    if chosen is None or os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"no exit to focus (status {status}): {seen[-300:]!r}")
    return ended - chosen


def exit_path_rows(binaries, runs):
    """The exit path of each binary in `binaries` (label: path), interleaved,
    beside /bin/true spawned and waited for."""
    home = tempfile.mkdtemp(prefix="miga-bench-exit-")
    env = {"HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color",
           "COLORTERM": "truecolor", "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data"}
    actions = {"/bin/true": lambda: spawn_and_wait(["/bin/true"], env)}
    for label, binary in binaries.items():
        actions[f"{EXIT_ROW}, {label}"] = lambda binary=binary: exit_path([binary, "gate", "true"], env)
    rows = measure(runs, actions)
    shutil.rmtree(home, ignore_errors=True)
    return rows


def peak_memory(argv, env, terminal):
    """Peak resident memory in MB, as GNU time reports it."""
    report = tempfile.mktemp(prefix="miga-bench-rss-")
    wrapped = ["/usr/bin/time", "-f", "%M", "-o", report] + argv
    if terminal:
        first_frame(wrapped, env)
    else:
        spawn_and_wait(wrapped, env)
    with open(report) as file:
        kib = int(file.read().split()[-1])
    os.unlink(report)
    return kib / 1024


def measure(runs, actions):
    """Median and 90th percentile in ms for each action, run round-robin so
    that the machine's drifting load falls on all of them alike."""
    for action in actions.values():
        for _ in range(3):
            action()  # warm the page cache
    times = {name: [] for name in actions}
    for _ in range(runs):
        for name, action in actions.items():
            times[name].append(action() * 1000)
    return {name: (statistics.median(values), sorted(values)[int(len(values) * 0.9)])
            for name, values in times.items()}


def sync_counts(argv, env):
    """The fdatasync and fsync calls of one launch to its first frame: all
    of them, as `strace -f -c -e trace=fdatasync,fsync` counts them, and
    those made before the frame was written. One run of strace gives both:
    -C prints the -c summary after the calls in order, and the writes are
    traced too, for strace shows the start of each, where the frame begins
    (ESC [ ? 2026 h)."""
    with tempfile.TemporaryDirectory(prefix="miga-bench-strace-") as folder:
        trace = folder + "/trace"
        first_frame([shutil.which("strace"), "-f", "-C", "-e", "trace=fdatasync,fsync,write", "-o", trace] + argv, env)
        total, before, drawn = 0, 0, False
        with open(trace) as file:
            for line in file:
                words = line.split()
                # The summary's rows: "% time  seconds  usecs/call  calls  [errors]  syscall".
                if words and words[-1] in ("fdatasync", "fsync") and words[0][0].isdigit() and "(" not in line:
                    total += int(words[3])
                elif "2026h" in line:
                    drawn = True
                elif not drawn and ("fdatasync(" in line or "fsync(" in line):
                    before += 1
    return total, before


def sync_rows(binaries, env, launches):
    """For each binary (label: path): the syncs of `launches` launches in a
    row into a store of its own (made by a first launch, not counted), and
    of a launch into a brand-new store."""
    rows = {}
    for label, binary in binaries.items():
        home = tempfile.mkdtemp(prefix="miga-bench-syncs-")
        at_rest = dict(env, HOME=home, XDG_DATA_HOME=home + "/data", XDG_CONFIG_HOME=home + "/config")
        first_frame([binary, "gate", "true"], at_rest)
        counts = [sync_counts([binary, "gate", "true"], at_rest) for _ in range(launches)]
        fresh = tempfile.mkdtemp(prefix="miga-bench-syncs-new-")
        brand_new = sync_counts([binary, "gate", "true"], dict(env, HOME=fresh, XDG_DATA_HOME=fresh + "/data",
                                                                 XDG_CONFIG_HOME=fresh + "/config"))
        rows[label] = (counts, brand_new)
        for path in (home, fresh):
            shutil.rmtree(path, ignore_errors=True)
    return rows


def load_seeder():
    """Benchmarks/seed.py's way of filling a store."""
    spec = importlib.util.spec_from_file_location("seed", os.path.join(os.path.dirname(__file__), "seed.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.seed


def binary_facts(path):
    """Installed size in MB (stripped, as `make install` writes it), whether
    it is position-independent, and its relocation count."""
    with tempfile.TemporaryDirectory() as folder:
        stripped = folder + "/miga"
        subprocess.run(["strip", "-o", stripped, path], check=True)
        size = os.path.getsize(stripped) / 1e6
    header = subprocess.run(["readelf", "-h", path], capture_output=True, text=True, check=True).stdout
    relocations = subprocess.run(["readelf", "-r", "-W", path], capture_output=True, text=True, check=True).stdout
    count = sum(1 for line in relocations.splitlines() if line[:1] in "0123456789abcdef" and line[:16].strip().isalnum())
    return size, "DYN" in header.split("Type:", 1)[1].split("\n", 1)[0], count


def cpu_model():
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/release/miga")
    if os.environ.get("MIGA_BENCH_ONLY") == "exit-path":
        # Just the exit path: this binary, and any given after it (an earlier
        # build, say) as label=path, interleaved in one run.
        binaries = {"this build": binary}
        binaries.update(word.split("=", 1) for word in sys.argv[2:])
        rows = exit_path_rows(binaries, int(os.environ.get("MIGA_BENCH_RUNS", "100")))
        for name, (median, p90) in rows.items():
            print(f"| {name:<44} | {median:6.2f} ms | {p90:6.2f} ms |")
        return
    others = dict(word.split("=", 1) for word in sys.argv[2:])
    fortune = shutil.which("fortune") or "/usr/games/fortune"
    home = tempfile.mkdtemp(prefix="miga-bench-")
    env = {"HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
           "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data"}
    pause_env = dict(env, TERM="xterm-256color", COLORTERM="truecolor")
    pause_exit_env = pause_env
    runs = int(os.environ.get("MIGA_BENCH_RUNS", "100"))

    fresh_homes = []

    # A home whose quote folder holds 20 000 entries of the person's own.
    quotes_home = tempfile.mkdtemp(prefix="miga-bench-quotes-")
    os.makedirs(quotes_home + "/config/miga/quotes")
    with open(quotes_home + "/config/miga/quotes/fortunes.txt", "w") as file:
        for index in range(20_000):
            words = " ".join(["patience", "small", "steps", "morning", "tea", "quiet"][(index + k) % 6] for k in range(8 + index % 30))
            file.write(f"fortunes-{index:05d} | Fortunes | a collection | Entry {index}: {words}.\n")
    quotes_env = dict(pause_env, HOME=quotes_home, XDG_CONFIG_HOME=quotes_home + "/config",
                      XDG_DATA_HOME=quotes_home + "/data")

    def fresh_store_frame():
        fresh = tempfile.mkdtemp(prefix="miga-bench-fresh-")
        fresh_homes.append(fresh)
        return first_frame([binary, "gate", "true"], dict(pause_env, HOME=fresh, XDG_DATA_HOME=fresh + "/data",
                                                          XDG_CONFIG_HOME=fresh + "/config"))

    # Each other build with a history of its own: builds that keep the
    # write-ahead log and builds that take it away as they close would
    # otherwise make each other's first launch after theirs begin a log.
    other_envs = {}
    for label in others:
        other_home = tempfile.mkdtemp(prefix="miga-bench-other-")
        fresh_homes.append(other_home)
        other_env = dict(env, HOME=other_home, XDG_CONFIG_HOME=other_home + "/config", XDG_DATA_HOME=other_home + "/data")
        other_envs[label] = (other_env, dict(pause_env, HOME=other_home, XDG_CONFIG_HOME=other_home + "/config",
                                             XDG_DATA_HOME=other_home + "/data"))

    rows = measure(runs, {
        "/bin/true": lambda: spawn_and_wait(["/bin/true"], env),
        "fortune": lambda: spawn_and_wait([fortune], env),
        "miga gate true, no terminal (pass-through)": lambda: spawn_and_wait([binary, "gate", "true"], env),
        "miga first full frame (pty 80x24)": lambda: first_frame([binary, "gate", "true"], pause_env),
        "miga first full frame, 20 000 own quotes": lambda: first_frame([binary, "gate", "true"], quotes_env),
        "first frame, terminal answers DA1 only": lambda: first_frame([binary, "gate", "true"], pause_env, ("da1",)),
        "first frame, COLORFGBG set (nothing asked)": lambda: first_frame([binary, "gate", "true"],
                                                                               dict(pause_env, COLORFGBG="0;15")),
        "first frame, TERM=xterm (nothing asked)": lambda: first_frame([binary, "gate", "true"],
                                                                                        dict(pause_env, TERM="xterm", COLORTERM="")),
        "miga init zsh": lambda: spawn_and_wait([binary, "init", "zsh"], env),
        EXIT_ROW: lambda: exit_path([binary, "gate", "true"], pause_exit_env),
        **{row: action for label, other in others.items() for row, action in (
            (f"{label}: pass-through", lambda other=other, label=label: spawn_and_wait([other, "gate", "true"], other_envs[label][0])),
            (f"{label}: first full frame", lambda other=other, label=label: first_frame([other, "gate", "true"], other_envs[label][1])),
            (f"{label}: miga init zsh", lambda other=other, label=label: spawn_and_wait([other, "init", "zsh"], other_envs[label][0])))},
    })
    rows.update(measure(max(10, runs // 5), {"miga first full frame, brand-new store": fresh_store_frame}))
    stats_rows = {}
    seed = load_seeder()
    for count in (10_000, 100_000, 1_000_000):
        stats_home = tempfile.mkdtemp(prefix="miga-bench-stats-")
        stats_env = dict(env, HOME=stats_home, XDG_DATA_HOME=stats_home + "/data", XDG_CONFIG_HOME=stats_home + "/config")
        spawn_and_wait([binary, "export"], stats_env)  # creates the store (stats only looks, and makes none)
        seed(stats_home + "/data/miga/miga.sqlite", count, 1500)
        label = f"miga stats, {count:,} sessions".replace(",", " ")
        stats_rows.update(measure(max(5, runs // 10), {label: lambda: spawn_and_wait([binary, "stats"], stats_env)}))
        if count == 1_000_000:
            # The pause of a program with 350 000 of those sessions behind it
            # (its counts for today and the hour come from the same store).
            os.makedirs(stats_home + "/bin")
            os.symlink("/bin/true", stats_home + "/bin/firefox")
            big_env = dict(pause_env, HOME=stats_home, XDG_DATA_HOME=stats_home + "/data",
                           XDG_CONFIG_HOME=stats_home + "/config", PATH=stats_home + "/bin:/usr/bin:/bin")
            stats_rows.update(measure(max(10, runs // 5), {
                "miga first full frame, 1 000 000 sessions": lambda: first_frame([binary, "gate", "firefox"], big_env),
                # The plain frame again, interleaved with it: the ratio's baseline.
                "miga first full frame, beside it": lambda: first_frame([binary, "gate", "true"], pause_env)}))
        shutil.rmtree(stats_home, ignore_errors=True)

    # One look for launches that went around the pause, with 500 more
    # processes running: `miga stats` with a protected program (one pass over
    # /proc) against the same with none (no look), interleaved.
    sleepers = [subprocess.Popen(["sleep", "600"]) for _ in range(500)]
    leak_rows = {}
    leak_homes = []
    try:
        for label, config in (("miga stats, 500 more processes, a look", "[programs.not-running]\n"),
                              ("miga stats, 500 more processes, no look", "")):
            leak_home = tempfile.mkdtemp(prefix="miga-bench-leaks-")
            leak_homes.append(leak_home)
            os.makedirs(leak_home + "/config/miga")
            with open(leak_home + "/config/miga/config.toml", "w") as file:
                file.write(config)
            leak_env = dict(env, HOME=leak_home, XDG_DATA_HOME=leak_home + "/data", XDG_CONFIG_HOME=leak_home + "/config")
            spawn_and_wait([binary, "stats"], leak_env)  # creates the store
            leak_rows[label] = lambda leak_env=leak_env: spawn_and_wait([binary, "stats"], leak_env)
        processes = sum(1 for name in os.listdir("/proc") if name.isdigit())
        leak_rows = measure(max(20, runs // 2), leak_rows)
    finally:
        for sleeper in sleepers:
            sleeper.kill()
            sleeper.wait()
        for path in leak_homes:
            shutil.rmtree(path, ignore_errors=True)

    memory = {
        "pause": max(peak_memory([binary, "gate", "true"], pause_env, terminal=True) for _ in range(5)),
        "pass-through": max(peak_memory([binary, "gate", "true"], env, terminal=False) for _ in range(5)),
        "fortune": max(peak_memory([fortune], env, terminal=False) for _ in range(5)),
    }
    for path in [home, quotes_home] + fresh_homes:
        shutil.rmtree(path, ignore_errors=True)
    syncs = sync_rows({"this build": binary, **others}, pause_env, 16) if shutil.which("strace") else {}

    true_median = rows["/bin/true"][0]
    fortune_median = rows["fortune"][0]
    frame = rows["miga first full frame (pty 80x24)"][0]
    print(f"MIGA benchmark, {time.strftime('%Y-%m-%d')}: {cpu_model()}, {os.cpu_count()} cores, "
          f"Linux {platform.release()}")
    print(f"binary: {binary} ({os.path.getsize(binary) / 1e6:.0f} MB); {runs} rounds, rows interleaved, after 3 warm-ups")
    print()
    print(f"| {'what':<44} | {'median':>9} | {'p90':>9} |")
    print(f"|{'-' * 46}|{'-' * 11}|{'-' * 11}|")
    for name, (median, p90) in list(rows.items()) + list(stats_rows.items()) + list(leak_rows.items()):
        print(f"| {name:<44} | {median:6.2f} ms | {p90:6.2f} ms |")
    print()
    pass_through = rows["miga gate true, no terminal (pass-through)"][0] - true_median
    print(f"pass-through overhead over exec'ing /bin/true directly: {pass_through:.2f} ms (target <= 5 ms)")
    print(f"first full frame: {frame:.2f} ms (target <= 10 ms), {frame / fortune_median:.1f}x fortune")
    unasked = rows["first frame, COLORFGBG set (nothing asked)"][0]
    print(f"asking the terminal's background: {frame - unasked:+.2f} ms (answered OSC 11 and DA1), "
          f"{rows['first frame, terminal answers DA1 only'][0] - unasked:+.2f} ms (DA1 only), "
          f"against COLORFGBG set")
    big_frame = stats_rows["miga first full frame, 1 000 000 sessions"][0]
    beside = stats_rows["miga first full frame, beside it"][0]
    print(f"first full frame with 1 000 000 sessions in the history: {big_frame:.2f} ms, "
          f"{big_frame / beside:.2f}x the plain frame measured beside it")
    quotes_frame = rows["miga first full frame, 20 000 own quotes"][0]
    print(f"first full frame with 20 000 own quotes: {quotes_frame:.2f} ms, {quotes_frame / frame:.2f}x the built-in bank's "
          f"(target <= 2x)")
    print(f"exit path: {rows[EXIT_ROW][0]:.2f} ms from the e to the process's end (target <= 50 ms)")
    init = rows["miga init zsh"][0] - true_median
    print(f"miga init zsh: {rows['miga init zsh'][0]:.2f} ms, {init:.2f} ms over /bin/true (target <= 5 ms)")
    stats = [value for name, value in stats_rows.items() if name.startswith("miga stats")]
    print(f"miga stats: {stats[0][0]:.1f} / {stats[1][0]:.1f} / {stats[2][0]:.1f} ms at 10 k / 100 k / 1 M "
          f"(targets 20 / 50 / 300 ms); x{stats[1][0] / stats[0][0]:.1f} and x{stats[2][0] / stats[1][0]:.1f} "
          f"for each tenfold (linear would be x10)")
    look = leak_rows["miga stats, 500 more processes, a look"][0] - leak_rows["miga stats, 500 more processes, no look"][0]
    print(f"one look for launches around the pause, {processes} processes running: {look:.2f} ms")
    print()
    print(f"| {'binary':<44} | {'installed':>9} | {'PIE':>5} | {'relocations':>11} |")
    print(f"|{'-' * 46}|{'-' * 11}|{'-' * 7}|{'-' * 13}|")
    for label, path in {"this build": binary, **others}.items():
        size, pie, count = binary_facts(path)
        print(f"| {label:<44} | {size:6.1f} MB | {'yes' if pie else 'no':>5} | {count:>11,} |".replace(",", " "))
    print(f"pass-through overhead against fortune: {pass_through:.2f} ms, {pass_through / fortune_median:.2f}x fortune "
          f"(target <= 1x); miga init zsh {init:.2f} ms over /bin/true (target <= 2 ms)")
    for label in others:
        print(f"{label}: pass-through {rows[label + ': pass-through'][0] - true_median:.2f} ms over /bin/true, "
              f"first frame {rows[label + ': first full frame'][0]:.2f} ms "
              f"({rows[label + ': first full frame'][0] / fortune_median:.1f}x fortune), "
              f"miga init zsh {rows[label + ': miga init zsh'][0] - true_median:.2f} ms over /bin/true")
    print(f"peak memory: pause {memory['pause']:.1f} MB (target <= 30 MB), pass-through {memory['pass-through']:.1f} MB, "
          f"fortune {memory['fortune']:.1f} MB")
    if syncs:
        print()
        print("syncs (fdatasync + fsync) of a launch to its first frame, strace -f -c, "
              "16 launches in a row into one store (target: none before the frame):")
        print(f"| {'build':<14} | {'all, median (min-max)':>22} | {'before the frame':>20} | {'brand-new store':>16} |")
        print(f"|{'-' * 16}|{'-' * 24}|{'-' * 22}|{'-' * 18}|")
        for label, (counts, brand_new) in syncs.items():
            totals, befores = [total for total, _ in counts], [before for _, before in counts]
            print(f"| {label:<14} | {statistics.median(totals):>6g} ({min(totals)}-{max(totals)}), sum {sum(totals):>3} "
                  f"| {statistics.median(befores):>6g} ({min(befores)}-{max(befores)}), sum {sum(befores):>3} "
                  f"| {brand_new[0]} ({brand_new[1]} before) |")


if __name__ == "__main__":
    main()
