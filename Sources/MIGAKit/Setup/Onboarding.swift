/// The twelve pages a person reads before their first pause (seed S-001).
public enum Onboarding {
    public struct Page: Equatable, Sendable {
        public let title: String
        public let paragraphs: [String]
    }

    public static let pages: [Page] = [
        Page(title: "Welcome to MIGA", paragraphs: [
            "A mindful gateway for the programs that pull at you.",
            "Between the impulse and the click, MIGA puts a short, calm pause. What you do with it is always your choice.",
        ]),
        Page(title: "The pull is ordinary", paragraphs: [
            "Reaching for a browser, a chat or a game without deciding to is something every mind does. MIGA is not here to scold it.",
            "It is here to make the moment visible, so that you can choose.",
        ]),
        Page(title: "A pause, not a wall", paragraphs: [
            "When you open a protected program, a pause appears first: a short text and a countdown ring.",
            "Nothing is ever blocked. The program is always one countdown away.",
        ]),
        Page(title: "Why a pause works", paragraphs: [
            "In a six-week study of a similar pause on phones (one sec, PNAS 2023), people backed out of 36 % of their attempts, and their openings fell by 57 %.",
            "A message alone did little. The wait, and an easy way out, are what work.",
        ]),
        Page(title: "Exit to Focus", paragraphs: [
            "Press E at any moment to close the pause and go back to what you were doing. It counts as a conscious exit, and MIGA celebrates it.",
            "It is always the easiest key on the screen.",
        ]),
        Page(title: "Deepen the Pause", paragraphs: [
            "Press D for another text and a fresh countdown, as often as you like.",
            "Sometimes the second thought is the one you needed.",
        ]),
        Page(title: "Proceed, awake", paragraphs: [
            "When the ring is empty, P opens the program exactly as you asked, every argument untouched.",
            "Choosing it awake is a good choice too.",
        ]),
        Page(title: "How MIGA reaches your programs", paragraphs: [
            "Typing a program's name in your shell, or a script calling it, goes through a small shim placed first in your PATH. Opening it from the application menu shows the same pause in a terminal window.",
            "Launches without a terminal pass straight through, and are counted as such.",
        ]),
        Page(title: "Everything stays here", paragraphs: [
            "No account, no network, no telemetry. Your history lives in one file under ~/.local/share/miga, your settings in ~/.config/miga.",
            "You can export it, share it between your own machines, or delete it.",
        ]),
        Page(title: "Your numbers", paragraphs: [
            "`miga stats` shows your conscious exits, the time you spent in pauses, and your intentionality: exits as a share of pauses.",
            "Every day with at least one conscious exit grows your streak.",
        ]),
        Page(title: "What to expect", paragraphs: [
            "The first days may feel like friction. That is the point: a moment to notice. Stepping away about a quarter of the time is a fine place to be.",
            "MIGA never shames. Every choice you make awake counts.",
        ]),
        Page(title: "Let's begin", paragraphs: [
            "Next: the programs MIGA pauses, the kind of texts you would like to read, and how long a pause lasts.",
            "Nothing is saved until the end.",
        ]),
    ]
}
