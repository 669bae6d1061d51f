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
    let (file, store) = try storeWithFile(Data("not a property list".utf8))
    let keys = keys(of: store)
    synchronizer.open(file, keys: keys)
    defer { synchronizer.close(file, keys: keys) }
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
    let keys = keys(of: store)
    synchronizer.open(file, keys: keys)
    defer { synchronizer.close(file, keys: keys) }
    let contents = try synchronizer.synchronize(keys, file).contents
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
    let (other, otherStore) = try storeWithFile(nil)
    let (keys, otherKeys) = (keys(of: store), keys(of: otherStore))
    synchronizer.open(file, keys: keys)
    synchronizer.open(other, keys: otherKeys)
    defer {
      synchronizer.close(file, keys: keys)
      synchronizer.close(other, keys: otherKeys)
    }
    let held = try DiskFileSystem().lock(other.url, exclusive: true)
    let synchronization = BackgroundSynchronization(synchronizer, keys, file)
    #expect(synchronization.outcome(within: .milliseconds(300)) == nil)
    held.unlock()
    #expect(synchronization.outcome(within: .seconds(30)) != nil)
  }

  /// Foundation writes every store of the process that has changes: a synchronization that
  /// cannot take the lock of another store file in use, which another process holds past
  /// the wait, fails before Foundation writes anything, rather than write that store over
  /// what the lock's holder writes.
  @Test func aStoreFileLockedElsewhereFailsTheSynchronizationOfAnotherStore() throws {
    let synchronizer = DefaultsSynchronizer(lockTimeout: .milliseconds(200))
    let (file, store) = try storeWithFile(nil)
    let (locked, lockedStore) = try storeWithFile(nil)
    let (keys, lockedKeys) = (keys(of: store), keys(of: lockedStore))
    synchronizer.open(file, keys: keys)
    synchronizer.open(locked, keys: lockedKeys)
    defer {
      synchronizer.close(file, keys: keys)
      synchronizer.close(locked, keys: lockedKeys)
    }
    let held = try lockAsAnotherProcess(locked)
    defer { close(held) }
    let error = #expect(throws: AppStorageError.self) {
      try synchronizer.synchronize(keys, file)
    }
    #expect("\(String(describing: error))".contains("\(locked.path) stayed locked past the wait"))
  }

  #if os(Linux)
    /// A store opened while a synchronization of another waits for its locks is not among
    /// the files it locked: if it has changes Foundation is about to write, its file is
    /// locked and read then, so that a default value it holds is still checked against it.
    ///
    /// Its own synchronizer, which waits long for a lock: the steps made while the
    /// synchronization waits take what a loaded machine gives them, and no other test's
    /// synchronization locks this test's files, or is taken for the one awaited here (though
    /// other tests' synchronizations wait their turn behind it, one at a time per process).
    @Test func aDefaultOfAStoreOpenedDuringASynchronizationIsCheckedAgainstItsFile() throws {
      let synchronizer = DefaultsSynchronizer(lockTimeout: .seconds(120))
      let (file, store) = try storeWithFile(nil)
      let (late, lateStore) = try storeWithFile(nil)
      let fileKeys = keys(of: store)
      synchronizer.open(file, keys: fileKeys)
      defer { synchronizer.close(file, keys: fileKeys) }
      var heldFile: Int32? = try lockAsAnotherProcess(file)
      defer { heldFile.map { _ = close($0) } }
      let synchronization = BackgroundSynchronization(synchronizer, fileKeys, file)
      try waitUntilAThreadOfThisProcessWaitsForTheLock(of: file)
      let lateKeys = keys(of: lateStore)
      synchronizer.open(late, keys: lateKeys)
      defer { synchronizer.close(late, keys: lateKeys) }
      _ = lateKeys.storeDefault(0, forKey: "count", by: ObjectIdentifier(lateKeys))
      let heldLate = try lockAsAnotherProcess(late)
      try PropertyListSerialization.data(fromPropertyList: ["count": 5], format: .xml, options: 0)
        .write(to: late.url)
      close(heldLate)
      heldFile.map { _ = close($0) }
      heldFile = nil
      let outcome = try #require(synchronization.outcome(within: .seconds(30)))
      #expect(throws: Never.self) { try outcome.get() }
      #expect(storedProperties(atPath: late.path)?["count"] as? Int == 5)
      #expect(lateStore.integer(forKey: "count") == 5)
    }

    /// Waits until a thread of this process waits for the `flock` of `file`'s lock file, as
    /// `/proc/locks` tells.
    private func waitUntilAThreadOfThisProcessWaitsForTheLock(of file: DefaultsFile) throws {
      let lockFile = try DiskFileSystem.lockURL(of: file.url)
      let inode = try #require(
        FileManager.default.attributesOfItem(atPath: lockFile.path)[.systemFileNumber] as? UInt64
      )
      let waiter = "-> FLOCK  ADVISORY  WRITE \(getpid()) "
      let deadline = ContinuousClock.now + .seconds(30)
      var isWaiting = false
      while !isWaiting, ContinuousClock.now < deadline {
        let locks = try String(contentsOfFile: "/proc/locks", encoding: .utf8)
        isWaiting = locks.split(separator: "\n").contains {
          $0.contains(waiter) && $0.hasSuffix(":\(inode) 0 EOF")
        }
        if !isWaiting { Thread.sleep(forTimeInterval: 0.001) }
      }
      try #require(isWaiting, "No thread of this process waited for the lock of \(file.path)")
    }
  #endif

  /// Takes the lock of `file` as another process would, through a descriptor of its own;
  /// closing the descriptor releases it.
  private func lockAsAnotherProcess(_ file: DefaultsFile) throws -> Int32 {
    let descriptor = open(try DiskFileSystem.lockURL(of: file.url).path, O_RDONLY | O_CREAT, 0o644)
    try #require(descriptor >= 0)
    try #require(flock(descriptor, LOCK_EX) == 0)
    return descriptor
  }

  /// The keys of `store`, as its record has them.
  private func keys(of store: UserDefaults) -> DefaultsKeys {
    DefaultsKeys(store: UserDefaultsBox(base: store))
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

/// A synchronization made on a thread of its own.
private final class BackgroundSynchronization: Sendable {
  private let ended = DispatchSemaphore(value: 0)
  private let result = Locked<Result<Void, any Error>?>(nil)

  init(_ synchronizer: DefaultsSynchronizer, _ keys: DefaultsKeys, _ file: DefaultsFile) {
    DispatchQueue.global().async { [self] in
      let outcome = Result { _ = try synchronizer.synchronize(keys, file) }
      result.withLock { $0 = outcome }
      ended.signal()
    }
  }

  /// How it ended, if it ends within `timeout`.
  func outcome(within timeout: DispatchTimeInterval) -> Result<Void, any Error>? {
    if let result = result.withLock({ $0 }) { return result }
    _ = ended.wait(timeout: .now() + timeout)
    return result.withLock { $0 }
  }
}
