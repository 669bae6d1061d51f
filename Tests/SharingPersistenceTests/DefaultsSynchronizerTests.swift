import Foundation
import SharingCore
import SharingDependencies
import Testing

@testable import SharingPersistence

/// How user defaults stores are written to their files: with the lock of every store file
/// in use held, and never over unreadable bytes that were not kept aside. Integration tests,
/// on the real disk.
@Suite struct DefaultsSynchronizerTests {
  let synchronizer = DefaultsSynchronizer.shared

  @Test func unreadableBytesAreKeptAsideOncePerVersion() throws {
    let (file, _) = try storeWithFile(Data("not a property list".utf8))
    synchronizer.open(file)
    defer { synchronizer.close(file) }
    let error = try synchronizer.keepAsideIfUnparseable(file, file.contents())
    #expect("\(try #require(error))".contains(file.path))
    try synchronizer.keepAsideIfUnparseable(file, file.contents())
    #expect(try keptFiles(of: file).count == 1)
    try Data("still not one".utf8).write(to: file.url)
    try synchronizer.keepAsideIfUnparseable(file, file.contents())
    #expect(try keptFiles(of: file).count == 2)
  }

  @Test func aPropertyListIsNotKeptAside() throws {
    let (file, store) = try storeWithFile(nil)
    store.set(1, forKey: "count")
    synchronizer.open(file)
    defer { synchronizer.close(file) }
    let contents = try synchronizer.synchronize(keys(of: store), file).contents
    #expect(try synchronizer.keepAsideIfUnparseable(file, contents) == nil)
    #expect(try keptFiles(of: file).isEmpty)
  }

  /// A name too long for a file of its own beside it: its unreadable bytes cannot be kept, so
  /// Foundation is not asked to write any store.
  @Test func aStoreWhoseFileCouldNotBeKeptAsideIsNeverWritten() throws {
    let garbage = Data("not a property list".utf8)
    let (file, _) = try storeWithFile(garbage, name: String(repeating: "s", count: 249))
    let store = try #require(CountingDefaults(suiteName: String(file.path.dropLast(6))))
    #expect(throws: AppStorageError.self) { try synchronizer.synchronize(keys(of: store), file) }
    #expect(store.synchronizations.withLock(\.isEmpty))
    #expect(try Data(contentsOf: file.url) == garbage)
  }

  /// Foundation writes every store of the process that has changes: a synchronization holds
  /// the lock of each store file in use, so that no process's keys are written over.
  @Test func aSynchronizationHoldsTheLockOfEveryStoreFileInUse() async throws {
    let (file, store) = try storeWithFile(nil)
    let (other, _) = try storeWithFile(nil)
    synchronizer.open(file)
    synchronizer.open(other)
    defer {
      synchronizer.close(file)
      synchronizer.close(other)
    }
    let held = try DiskFileSystem().lock(other.url, exclusive: true)
    let synchronized = DispatchSemaphore(value: 0)
    DispatchQueue.global().async { [synchronizer, store = UserDefaultsBox(base: store)] in
      _ = try? synchronizer.synchronize(keys(of: store.base), file)
      synchronized.signal()
    }
    #expect(synchronized.wait(timeout: .now() + .milliseconds(300)) == .timedOut)
    held.unlock()
    #expect(synchronized.wait(timeout: .now() + .seconds(30)) == .success)
  }

  /// The keys of `store`, as its record has them.
  private func keys(of store: UserDefaults) -> DefaultsKeys {
    DefaultsKeys(store: UserDefaultsBox(base: store), fileError: nil)
  }

  /// A suite in the directory of temporary stores, with `contents` in its file if given.
  private func storeWithFile(
    _ contents: Data?,
    name: String? = nil
  ) throws -> (DefaultsFile, UserDefaults) {
    var suite = TemporaryUserDefaults.makeSuiteName()
    if let name { suite = (suite as NSString).deletingLastPathComponent + "/" + name }
    let file = DefaultsFile(path: suite + ".plist")
    try FileManager.default.createDirectory(
      at: file.url.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    if let contents { try contents.write(to: file.url) }
    return (file, try #require(UserDefaults(suiteName: suite)))
  }

  private func keptFiles(of file: DefaultsFile) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: file.url.deletingLastPathComponent().path)
      .filter { $0.hasPrefix(file.url.lastPathComponent + ".corrupt-") }
  }
}
