import SharingDependencies

/// The files with a write pending or in progress, across every ``FileStorage``, flushed
/// when the process exits normally.
///
/// A file stays here until its write lands, so a value changed through a shared value that
/// was released before the throttle fired is still written.
final class PendingFiles: Sendable {
  static let shared = PendingFiles()

  private let files = Locked<[ObjectIdentifier: StoredFile]>([:])

  private init() {
    ExitFlush.register { [self] in flushAll() }
  }

  func insert(_ file: StoredFile) {
    files.withLock { $0[ObjectIdentifier(file)] = file }
  }

  func remove(_ file: StoredFile) {
    files.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(file)) }
  }

  /// Writes every pending value now, on the calling thread.
  func flushAll() {
    for file in files.withLock({ Array($0.values) }) { file.flush() }
  }
}
