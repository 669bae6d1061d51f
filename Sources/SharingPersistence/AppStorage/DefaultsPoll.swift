import Foundation
import SharingDependencies

/// Compares the subscribed keys of a store with what they saw, every 50 milliseconds (less
/// often for a large store) until stopped, to tell them of changes made through another
/// store object of the process (`UserDefaults.standard.set(…)`), which Foundation tells
/// nobody; then writes the store, as it writes the changes made through the package.
///
/// Only small values are compared: reading a large one takes Foundation long. A large value
/// changed so is told when the store is next written.
final class DefaultsPoll: Sendable {
  static let interval = Duration.milliseconds(50)

  private let io: DefaultsIO
  private let isStopped = Locked(false)

  init(_ io: DefaultsIO) {
    self.io = io
  }

  /// Compares the keys after `delay`, and again after each comparison: after the interval,
  /// or four times the processor time the comparison took, if longer (after a change to the
  /// store, Foundation copies the whole store for the first value read from it).
  func start(after delay: Duration = interval) {
    DispatchWriteScheduler.shared.schedule(after: delay) { [self] in tick() }
  }

  private func tick() {
    guard !isStopped.withLock({ $0 }) else { return }
    let work = io.playChangesElsewhere()
    self.start(after: max(Self.interval, work * 4))
  }

  func stop() {
    isStopped.withLock { $0 = true }
  }
}
