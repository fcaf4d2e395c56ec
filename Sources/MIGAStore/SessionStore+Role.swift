extension SessionStore {
    /// What a process opens the store for, which sets how long it waits for
    /// another process's lock (a sync or an import holds it for seconds).
    public enum Role: Sendable {
        /// A launch, on its way to the pause's first frame: it waits a
        /// moment, then leaves what it would have written to the inbox, as a
        /// pass-through does, and the next process that opens the store
        /// writes it. Nothing the person did is lost, and no launch waits.
        case gateway
        /// A command or a chore: it waits its turn.
        case command

        /// How long it waits for a lock, in milliseconds.
        package var lockWait: Int32 {
            switch self {
            case .gateway: 250
            case .command: 10_000
            }
        }
    }
}
