import Foundation
import Wording

/// The repository's folders, found from this file's place (tests may run from any directory).
public enum Repository {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// `Locales/`, the catalogs of every language.
    public static let locales = root.appendingPathComponent("Locales").path
    /// `Templates/`.
    public static let templates = root.appendingPathComponent("Templates").path
}

extension Wording {
    /// The app's own catalogs, as `Locales/` holds them.
    public static let forTests: Wording = {
        do {
            return try Wording(directory: Repository.locales)
        } catch {
            fatalError("Locales/ does not load: \(error)")
        }
    }()
}
