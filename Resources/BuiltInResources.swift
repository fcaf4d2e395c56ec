/// Data files built into the `miga` binary.
public enum BuiltInResources {
    /// The quote bank, `Resources/quotes.txt`, as UTF-8 bytes.
    public static var quoteBank: [UInt8] { PackageResources.quotes_txt }
}
