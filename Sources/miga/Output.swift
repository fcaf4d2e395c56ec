import MIGACore
import MIGAKit

/// What the commands print on standard output passes here: names from the
/// config, desktop entries, quote files, arguments and other machines reach
/// the terminal as text, never as control sequences (the line breaks stay).
/// Output that is rendered on purpose (the palette's colours) or in a file
/// format with its own escaping (JSON, CSV) uses `Swift.print`.
func print(_ text: String, terminator: String = "\n") {
    Swift.print(printableLines(text), terminator: terminator)
}

func print() {
    Swift.print()
}
