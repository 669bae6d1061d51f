import SharingCore

/// What ``AppStorageCenter`` knows of one user defaults store, and the rules that decide
/// what it does next: which subscriptions hear of a change, and when the store is written to
/// its file.
///
/// A pure value: the center feeds it events under its lock and performs what it returns
/// (synchronising the store, calling subscriptions, resuming saves) after unlocking, as
/// ``WriteThrottle`` does for files.
///
/// Saving follows the file rules: the first change of a quiet period is written at once, so
/// its save learns whether it reached the disk; later ones are written together at most once
/// per ``syncInterval``; an explicit save, and the removal of a key, write at once.
struct UserDefaultsStoreState {
  /// The least time between two synchronisations that changes ask for.
  static let syncInterval = Duration.milliseconds(50)

  struct Subscription {
    let key: String
    /// The key instance that subscribed: its own writes are not played back to it.
    let writer: ObjectIdentifier
    var lastSeen: StoredDefaultsValue
    let onChange: @Sendable () -> Void
  }

  private(set) var subscriptions: [Int: Subscription] = [:]
  /// Whether changes were made that the file does not hold yet.
  private(set) var hasUnsavedChanges = false
  /// The saves that the next synchronisation resumes.
  private var waitingSaves: [SaveContinuation] = []
  private var lastSync: Duration?
  private(set) var isSyncScheduled = false
  /// The stamp the file had before this process last read it.
  private var knownStamp: FileStamp?
  /// Whether the file may hold a change this process has not read although its stamp is
  /// still ``knownStamp``. Nothing was read yet when the record opens.
  private var mayHoldUnreadChange = true
  /// Why the file cannot be read: set when it is found unparseable, until it is readable.
  var fileError: AppStorageError?
  /// Keys whose stored value could not be read: it is kept aside before they are written.
  var unreadableKeys: Set<String> = []

  /// Whether the record can be dropped: nothing to save, nobody to tell, nothing to report.
  var isIdle: Bool {
    subscriptions.isEmpty && !hasUnsavedChanges && waitingSaves.isEmpty && !isSyncScheduled
      && fileError == nil && unreadableKeys.isEmpty
  }

  /// Whether writing the file must wait: its unreadable bytes could not be kept aside.
  var blocksWrites: Bool {
    if case .notKept = fileError { return true }
    return false
  }

  mutating func subscribe(_ id: Int, _ subscription: Subscription) {
    subscriptions[id] = subscription
  }

  mutating func unsubscribe(_ id: Int) {
    subscriptions[id] = nil
  }

  /// Records a value stored for `key`, through a key instance (`writer`) or directly
  /// (`nil`); returns the subscriptions to tell.
  mutating func didStore(
    _ value: StoredDefaultsValue,
    forKey key: String,
    by writer: ObjectIdentifier?
  ) -> [@Sendable () -> Void] {
    var changed: [@Sendable () -> Void] = []
    for (id, subscription) in subscriptions.sorted(by: { $0.key < $1.key })
    where subscription.key == key {
      if subscription.writer != writer && subscription.lastSeen != value {
        changed.append(subscription.onChange)
      }
      subscriptions[id]?.lastSeen = value
    }
    return changed
  }

  /// Records the values read after the file changed, by subscription; returns the
  /// subscriptions to tell: those whose value changed, or all if `tellingAll`.
  mutating func didReload(
    _ values: [Int: StoredDefaultsValue],
    tellingAll: Bool
  ) -> [@Sendable () -> Void] {
    var changed: [@Sendable () -> Void] = []
    for (id, value) in values.sorted(by: { $0.key < $1.key }) {
      guard let subscription = subscriptions[id] else { continue }
      if tellingAll || subscription.lastSeen != value { changed.append(subscription.onChange) }
      subscriptions[id]?.lastSeen = value
    }
    return changed
  }

  /// Every subscription, to tell that the file cannot be read.
  var everySubscription: [@Sendable () -> Void] {
    subscriptions.sorted(by: { $0.key < $1.key }).map(\.value.onChange)
  }

  // MARK: Noticing changes

  /// Whether the store must be reloaded from its file, whose stamp is now `stamp`.
  func mustReload(stamp: FileStamp?) -> Bool {
    mayHoldUnreadChange || stamp != knownStamp
  }

  /// Records that the store was reloaded from its file, whose stamp was `stamp` before it was
  /// read; `now` is the time (``FileStamp/now()``) read before that stamp.
  ///
  /// A write landing within the file system clock's granularity of the stamp can leave the
  /// same stamp (same size, same modification time): until the stamp is older than that, the
  /// file must be read again.
  mutating func didReadFile(stamp: FileStamp?, stampedAfter now: Duration) {
    knownStamp = stamp
    mayHoldUnreadChange = stamp?.mayRepeat(after: now) ?? false
  }

  /// Records that this process wrote the store to its file: the file must be read again,
  /// since another process may have written it after this write and before any stamp this
  /// process could take of it.
  mutating func didWriteFile() {
    mayHoldUnreadChange = true
  }

  /// Records that the file, with stamp `stamp`, cannot be read: that version is not checked
  /// again.
  mutating func didFindUnreadable(stamp: FileStamp?) {
    knownStamp = stamp
    mayHoldUnreadChange = false
  }

  // MARK: Saving

  /// How soon a change must reach the file.
  enum Urgency {
    /// A change nobody waits for (a default value, a direct `set`): within the interval.
    case background
    /// A change a save waits for: at once in a quiet period, else with the next write.
    case throttled
    /// An explicit save, or a removal that Foundation only shows once written: at once.
    case immediate
  }

  /// What to do for a change.
  enum SaveStep {
    /// Synchronise now, then resume these saves.
    case synchronize([SaveContinuation])
    /// Nothing now; if a delay is given, call ``takeScheduledSync(now:)`` after it.
    case wait(schedulingAfter: Duration?)
  }

  /// Records a change, and the save waiting for it, if any.
  mutating func changed(
    saving continuation: SaveContinuation?,
    urgency: Urgency,
    now: Duration
  ) -> SaveStep {
    hasUnsavedChanges = true
    if let continuation { waitingSaves.append(continuation) }
    let sinceLast = lastSync.map { now - $0 }
    let isQuiet = sinceLast.map { $0 >= Self.syncInterval } ?? true
    if urgency == .immediate || (urgency == .throttled && isQuiet) {
      return .synchronize(takeWaiting(now: now))
    }
    guard !isSyncScheduled else { return .wait(schedulingAfter: nil) }
    isSyncScheduled = true
    let delay = sinceLast.map { max(Self.syncInterval - $0, .zero) } ?? Self.syncInterval
    return .wait(schedulingAfter: urgency == .background ? Self.syncInterval : delay)
  }

  /// The saves to resume after synchronising now, when the scheduled time comes; `nil` if
  /// there is nothing to write.
  mutating func takeScheduledSync(now: Duration) -> [SaveContinuation]? {
    isSyncScheduled = false
    return takeUnsaved(now: now)
  }

  /// The saves to resume after synchronising now; `nil` if there is nothing to write.
  mutating func takeUnsaved(now: Duration) -> [SaveContinuation]? {
    guard hasUnsavedChanges || !waitingSaves.isEmpty else { return nil }
    return takeWaiting(now: now)
  }

  /// Records the outcome of a synchronisation: changes that did not reach the file are
  /// still unsaved, and written again at exit.
  mutating func didSynchronize(succeeded: Bool) {
    if !succeeded { hasUnsavedChanges = true }
  }

  private mutating func takeWaiting(now: Duration) -> [SaveContinuation] {
    lastSync = now
    hasUnsavedChanges = false
    defer { waitingSaves = [] }
    return waitingSaves
  }
}
