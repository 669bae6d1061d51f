import Foundation
import SharingDependencies

/// Compares the subscribed keys of a store with what they saw, every 50 milliseconds until
/// stopped, to tell them of changes made through another store object of the process
/// (`UserDefaults.standard.set(…)`), which Foundation tells nobody; then writes the store,
/// as it writes the changes made through the package.
final class DefaultsPoll: Sendable {
  static let interval = Duration.milliseconds(50)

  private let io: DefaultsIO
  private let isStopped = Locked(false)

  init(_ io: DefaultsIO) {
    self.io = io
  }

  /// Compares the keys after the interval, and again after each.
  func start() {
    DispatchWriteScheduler.shared.schedule(after: Self.interval) { [self] in tick() }
  }

  private func tick() {
    guard !isStopped.withLock({ $0 }) else { return }
    let changed = io.keys.compareUnsynchronizedElsewhere()
    for onChange in changed { onChange() }
    // NB: Written here rather than by the record, which has no change of its own to write.
    if !changed.isEmpty { _ = try? io.write(Data(), keepingAside: nil) }
    start()
  }

  func stop() {
    isStopped.withLock { $0 = true }
  }
}
