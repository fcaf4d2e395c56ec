import FoundationEssentials
import MIGACore

/// A switch-off of protection, asked for and then carried out or thought better of.
public struct ProtectionChange: Equatable, Sendable {
    public enum Action: String, Sendable {
        case unprotect
        case uninstall
    }

    public enum Outcome: String, Sendable {
        /// Proceed: the change was made.
        case done
        /// Exit to Focus during its pause: everything stays protected.
        case kept
    }

    public var id: String
    public var at: Date
    public var action: Action
    /// The programs concerned.
    public var subjects: [String]
    public var outcome: Outcome

    public init(id: String = newUUID(), at: Date, action: Action, subjects: [String], outcome: Outcome) {
        self.id = id
        self.at = at
        self.action = action
        self.subjects = subjects
        self.outcome = outcome
    }
}

extension SessionStore {
    public func record(_ change: ProtectionChange) throws {
        try immediate { db in
            try db.execute(sql: "INSERT INTO changes (id, at, action, subject, outcome) VALUES (?, ?, ?, ?, ?)",
                           arguments: [change.id, change.at.milliseconds, change.action.rawValue,
                                       change.subjects.joined(separator: " "), change.outcome.rawValue])
        }
    }

    /// Every change, oldest first.
    public func changes() throws -> [ProtectionChange] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, at, action, subject, outcome FROM changes ORDER BY at, id").compactMap { row in
                guard let action = ProtectionChange.Action(rawValue: row["action"]),
                      let outcome = ProtectionChange.Outcome(rawValue: row["outcome"]) else { return nil }
                return ProtectionChange(id: row["id"], at: Date(milliseconds: row["at"]), action: action,
                                        subjects: (row["subject"] as String).split(separator: " ").map(String.init),
                                        outcome: outcome)
            }
        }
    }
}
