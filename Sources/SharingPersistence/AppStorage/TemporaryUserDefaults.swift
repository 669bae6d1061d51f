import Foundation

/// Fresh, isolated user defaults stores for tests and previews.
///
/// Each store is a suite named by an absolute path in a directory private to this process,
/// so Foundation keeps its property list there (on Linux, `<path>.plist`) rather than under
/// the home directory; the directory is removed when the process exits.
package enum TemporaryUserDefaults {
  private static let directory: URL = {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "Sharing-AppStorage-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)",
      isDirectory: true
    )
    ExitFlush.register(.cleanUp) { try? FileManager.default.removeItem(at: directory) }
    return directory
  }()

  /// A new suite name, an absolute path in the directory removed at exit.
  package static func makeSuiteName() -> String {
    directory.appendingPathComponent(UUID().uuidString).path
  }
}
