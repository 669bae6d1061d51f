import Foundation

// Reading and playback: what the store holds, others' changes read one at a time and
// delivered, and the watch.
extension RecordStateMachine {
  // MARK: Reading

  /// A load begins reading the store.
  func loadStarted() -> ReadTicket {
    ReadTicket(writesTaken: writesTaken, changesSaved: changesSaved, knowledge: knowledge)
  }

  /// Load `ticket` read `read`, on its last attempt if `isLastAttempt`.
  ///
  /// A value is read again while a transaction, read or delivery is under way (no attempt),
  /// or when a change or write came during the read or is under way (an attempt), as what it
  /// read may be older than what reaches the shared values; an error is handed over at once.
  /// Once quiet it is handed over as a delivery, and becomes known. On the last attempt, a
  /// write of the program's may still be under way, or the store may have changed since it
  /// read: it is still handed over as a delivery, and the store read again once that
  /// delivery ended, so that what is newer lands after it.
  mutating func loadEnded(
    _ ticket: ReadTicket,
    _ read: Result<StoredSnapshot<Stamp>, any Error>,
    isLastAttempt: Bool,
    resume: @escaping @Sendable () -> Void
  ) -> LoadOutcome {
    if case .success = read {
      // A transaction, read or delivery under way is short, and what it brings would land
      // after this value: the load waits for it, which is no attempt, and `resume` is called
      // once it ended.
      if isInTransaction || reading != nil || isDelivering {
        waitingLoads.append(resume)
        return .waitForOthers
      }
      if ticket != loadStarted() || isWriting, !isLastAttempt { return .readAgain }
    }
    let isQuiet = ticket == loadStarted() && !isWriting
    if isIdle {
      switch read {
      case .success(let snapshot):
        know(snapshot)
      case .failure:
        isUnreadable = true
      }
    }
    guard reading == nil, !isDelivering else { return .deliverBesideAnother }
    if !isQuiet { readsAgain = readsAgain || subscribers > 0 }
    (isDelivering, isDeliveringLoad) = (true, true)
    reading = ReadTicket(writesTaken: writesTaken)
    return .deliver
  }

  /// The bytes the store holds could not be decoded: they are kept aside before they are
  /// overwritten.
  mutating func markUndecodable(_ contents: Data) {
    undecodable = contents
  }

  /// The bytes the store holds were decoded: nothing needs keeping aside.
  mutating func markDecodable() {
    undecodable = nil
  }

  /// Someone may have changed the store; `stamp` is the stamp it now has, if the notice
  /// tells it.
  mutating func changeNoticed(stamp: Stamp?) -> [RecordAction<Stamp>] {
    if let stamp, case .some(stamp) = known, !deliversKnown { return [] }
    guard subscribers > 0 else { return [] }
    guard reading == nil, !isWriting else {
      readsAgain = true
      return []
    }
    return startReading()
  }

  mutating func startReading() -> [RecordAction<Stamp>] {
    let activeWatch: Int? =
      switch watch {
      case .active(let generation): generation
      case .none, .starting: nil
      }
    let ticket = ReadTicket(
      writesTaken: writesTaken,
      verifiesWatch: activeWatch,
      changesSaved: changesSaved
    )
    reading = ticket
    return [.read(ticket)]
  }

  /// Reads the store back after a write that may have reached the shared values before a
  /// delivery did, and delivers it whatever its stamp.
  mutating func readBack() -> [RecordAction<Stamp>] {
    deliversKnown = true
    // With no subscriber, nothing is owed a read, not even one asked for before.
    if subscribers == 0 { readsAgain = false }
    return changeNoticed(stamp: nil)
  }

  /// Read `ticket` found `read`.
  mutating func readEnded(
    _ ticket: ReadTicket,
    _ read: Result<StoredSnapshot<Stamp>, any Error>
  ) -> [RecordAction<Stamp>] {
    let actions = readEndedActions(ticket, read)
    return actions + resumeLoadsIfQuiet()
  }

  private mutating func readEndedActions(
    _ ticket: ReadTicket,
    _ read: Result<StoredSnapshot<Stamp>, any Error>
  ) -> [RecordAction<Stamp>] {
    reading = nil
    // NB: A write taken since may land after what was read: read again once it has.
    guard !isWriting, ticket.writesTaken == writesTaken, subscribers > 0 else {
      readsAgain = readsAgain || subscribers > 0
      return (isWriting ? [] : readAgainIfAsked()) + releaseIfUnused()
    }
    // NB: Not once the store was lost since, or said to change since: what was read is old.
    if let generation = ticket.verifiesWatch, watch == .active(generation: generation),
      isReachable, !readsAgain
    {
      watchedContents = (try? read.get()).map { .some($0.contents) } ?? nil
    }
    if pending != nil, case .success(let snapshot) = read,
      ticket.changesSaved != changesSaved || (known == nil && snapshot.contents == nil)
    {
      // The pending change is newer than what the read found, which is known: it was saved
      // while it read, or the store holds nothing and nothing of it was known before. A
      // deletion is not known, though: its own notice may come after the change was saved,
      // and then the deletion is newer and wins, as any change noticed after a save does.
      let isDeletion = snapshot.contents == nil && known != nil && !knownHoldsNoValue
      if !isDeletion { know(snapshot) }
      isUnreadable = false
      return readAgainIfAsked() + releaseIfUnused()
    }
    switch read {
    case .failure(let error):
      let wasUnreadable = isUnreadable
      isUnreadable = true
      deliversKnown = true
      guard !wasUnreadable else {
        return readAgainIfAsked() + retryReadLater() + releaseIfUnused()
      }
      return deliver(.failure(error))
    case .success(let snapshot)
    where snapshot.contents == nil && (knownHoldsNoValue || known == nil) && !isUnreadable
      && !deliversKnown:
      // No value then, no value now: the value did not change (a file created empty). Nor
      // did it if nothing was known: the shared values started from their default, which is
      // what no value gives. Delivered, the default could reach them after a change made
      // meanwhile, which a write would then not carry.
      know(snapshot)
      return readAgainIfAsked() + releaseIfUnused()
    case .success(let snapshot):
      guard known == .some(snapshot.stamp), !isUnreadable else { return accept(snapshot) }
      // NB: What the program knows is delivered again only when asked for, and only when
      //     nothing of the program's is newer: a pending, failed or landing change would be
      //     taken back in memory, and then written without being played back.
      guard deliversKnown, isIdle else { return readAgainIfAsked() + releaseIfUnused() }
      deliversKnown = false
      return deliver(.success(snapshot))
    }
  }

  /// Takes `snapshot` as what the store holds, newer than any pending change unless writes
  /// merge, and delivers it.
  mutating func accept(_ snapshot: StoredSnapshot<Stamp>) -> [RecordAction<Stamp>] {
    know(snapshot)
    deliversKnown = false
    if case .some = watchedContents { watchedContents = snapshot.contents }
    // The store changed after the pending value was set: the newer value wins, rather than
    // being overwritten by the older one.
    let actions = mergesWrites ? [] : forgetFailed() + supersedePending()
    return actions + unregisterIfIdle() + deliver(.success(snapshot))
  }

  /// Hands `result` to the subscribers, as the end of the read under way or as a read of its
  /// own: no other read starts until ``deliveryEnded()``.
  mutating func deliver(
    _ result: Result<StoredSnapshot<Stamp>, any Error>
  ) -> [RecordAction<Stamp>] {
    isDelivering = true
    reading = reading ?? ReadTicket(writesTaken: writesTaken)
    return [.deliver(result)]
  }

  /// A delivery ended.
  mutating func deliveryEnded() -> [RecordAction<Stamp>] {
    (isDelivering, isDeliveringLoad) = (false, false)
    reading = nil
    let actions = readAgainIfAsked() + (isUnreadable ? retryReadLater() : []) + releaseIfUnused()
    return actions + resumeLoadsIfQuiet()
  }

  /// Resumes the waiting loads once no transaction, read or delivery is under way.
  mutating func resumeLoadsIfQuiet() -> [RecordAction<Stamp>] {
    guard !waitingLoads.isEmpty, !isInTransaction, reading == nil, !isDelivering else {
      return []
    }
    defer { waitingLoads = [] }
    return [.resumeLoads(waitingLoads)]
  }

  /// The store could not be read though it can be reached (a statement that timed out, say):
  /// it is read again after a growing delay, as a failed write is made again, so that the
  /// subscribers are not left with an old value until the next change to the store.
  mutating func retryReadLater() -> [RecordAction<Stamp>] {
    guard retriesAfterDelay, isReachable, subscribers > 0, !isRetryScheduled else { return [] }
    isRetryScheduled = true
    return [.schedule(after: retryDelay.next(), retry: true)]
  }

  mutating func readAgainIfAsked() -> [RecordAction<Stamp>] {
    guard readsAgain, reading == nil, !isWriting, subscribers > 0 else { return [] }
    readsAgain = false
    return startReading()
  }

  // MARK: Subscribers and watching

  /// A subscriber wants others' changes: the store is watched while it has any.
  mutating func subscribed() -> [RecordAction<Stamp>] {
    subscribers += 1
    guard watch == .none else { return [] }
    watchGeneration += 1
    watch = .starting(generation: watchGeneration)
    return [.startWatching(generation: watchGeneration)]
  }

  /// The watch asked for by ``RecordAction/startWatching(generation:)`` started: the store
  /// is read, as it may have changed since it was loaded — once the read or write under way
  /// ended — which verifies the watch.
  ///
  /// - Returns: `nil` if the watch is no longer wanted: stop it.
  mutating func watchStarted(generation: Int) -> [RecordAction<Stamp>]? {
    guard watch == .starting(generation: generation) else { return nil }
    watch = .active(generation: generation)
    return changeNoticed(stamp: nil)
  }

  /// A subscriber left.
  mutating func unsubscribed() -> [RecordAction<Stamp>] {
    subscribers -= 1
    guard subscribers == 0 else { return [] }
    // Unwatched, the store may change unnoticed: what it holds is no longer sure.
    watchedContents = nil
    readsAgain = false
    let wasWatched = watch != .none
    watch = .none
    return (wasWatched ? [.stopWatching] : []) + releaseIfUnused()
  }
}
