import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

/// Integration tests with a second process: the `PersistenceProbe` executable.
@Suite struct ProcessTests {
  @Test func pendingWritesAreFlushedAtExit() async throws {
    try await withTemporaryDirectory { directory in
      let url = directory.file("count.json")
      let run = try await Probe.run(["file-increment", url.path, "1000"])
      #expect(run.status == 0, "\(run.standardError)")
      #expect(fileText(url) == "1000")
    }
  }

  @Test func twoProcessesOnOneFileConverge() async throws {
    try await withLiveFileSystem { directory in
      let url = directory.file("message.json")
      @Shared(.fileStorage(url)) var message = ""
      let child = try Probe.start(["file-converge", url.path])
      $message.withLock { $0 = "from parent" }
      await expectEventually(timeout: .seconds(30), "the child's write") {
        message == "from child"
      }
      let run = await Probe.finish(child)
      #expect(run.status == 0, "\(run.standardError)")
      #expect(fileText(url) == #""from child""#)
    }
  }

  @Test func appStorageWriteFromAnotherProcessIsPlayedBack() async throws {
    // NB: A suite in the directory of temporary stores, which is removed at exit: the store
    //     may be synchronised again after this test ends.
    let suite = TemporaryUserDefaults.makeSuiteName()
    let store = try #require(UserDefaults(suiteName: suite))
    @Shared(.appStorage("count", store: store)) var count = 0
    $count.withLock { $0 = 1 }
    try await $count.save()
    let run = try await Probe.run(["defaults-set", suite, "count", "42"])
    #expect(run.status == 0, "\(run.standardError)")
    await expectEventually("the other process's write") { count == 42 }
  }
}
