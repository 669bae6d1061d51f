import AppTestSupport
import Foundation
import TestSupport
import Testing

/// `counter` with its store on a read-only file system, as a user with a read-only home sees it.
@Suite(.enabled(if: ReadOnlyMount.canMount, "mounting a file system needs root's privileges"))
struct CounterReadOnlyFileSystemTests {
  @Test func aStoreOnAReadOnlyFileSystemSaysSoAndShowingTheCountStillWorks() async throws {
    try await withTemporaryDirectory { directory in
      let mount = try ReadOnlyMount(at: directory.file("config"))
      defer { mount.unmount() }
      let config = ["XDG_CONFIG_HOME": mount.url.path]
      let counter = try Program("counter")
      let increment = try await counter.run(["increment"], in: directory, environment: config)
      let show = try await counter.run([], in: directory, environment: config)

      let store = mount.url.appendingPathComponent("counter.plist").path
      #expect(increment.status == 1)
      #expect(
        increment.errorOutput
          == "counter: The count was not saved to \(store): read-only file system.\n"
      )
      #expect(show.status == 0)
      #expect(show.output == "Count: 0\n")
      #expect(
        show.errorOutput
          == "counter: warning: This launch was not counted: it cannot be saved to \(store):"
          + " read-only file system.\n"
      )
    }
  }
}

/// An empty tmpfs mounted read-only, for as long as a test needs it.
struct ReadOnlyMount {
  let url: URL

  /// Whether this process may mount file systems (root, with the privilege to).
  static let canMount: Bool = {
    let probe = FileManager.default.temporaryDirectory
      .appendingPathComponent("counter-mount-probe-\(UUID().uuidString)")
    guard let mount = try? ReadOnlyMount(at: probe) else {
      try? FileManager.default.removeItem(at: probe)
      return false
    }
    mount.unmount()
    return true
  }()

  init(at url: URL) throws {
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    self.url = url
    guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "ro,size=64k", "none", url.path]) else {
      throw CocoaError(.fileWriteNoPermission)
    }
  }

  func unmount() {
    _ = Self.run("/bin/umount", [url.path])
    try? FileManager.default.removeItem(at: url)
  }

  private static func run(_ program: String, _ arguments: [String]) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    let end = process.waitUntilEnded()
    return !end.isSignalled && end.status == 0
  }
}
