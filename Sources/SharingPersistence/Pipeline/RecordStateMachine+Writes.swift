import Foundation

// Saving: the throttle, one write at a time, retries, flushes, reaching the store again and
// transactions.
extension RecordStateMachine {
  // MARK: Saving

  /// A change was made: written now if `urgency` asks for it or the store is quiet, else
  /// after the interval (the key's own, if it gives one).
  mutating func saved(
    _ write: PendingWrite,
    urgency: WriteUrgency,
    interval: Duration? = nil,
    now: Duration
  ) -> [RecordAction<Stamp>] {
    changesSaved &+= 1
    if isDelivering, !isDeliveringLoad { echoesNextWrite = true }
    let keyInterval = interval
    let interval = interval ?? self.interval
    let isImmediate = urgency == .immediate || interval == .zero
    var actions = registerPending()
    // A replaced value is never written: its saves wait for the value that replaced it. The
    // pending change is taken out and put back, so that its saves are added to in place, not
    // copied at every change of a burst.
    if var replaced = pending.take() {
      actions.append(.discard(replaced.write.encode))
      replaced.write.encode = write.encode
      replaced.write.continuations += write.continuations
      pending = Pending(
        write: replaced.write,
        isImmediate: isImmediate || replaced.isImmediate,
        interval: keyInterval
      )
    } else {
      pending = Pending(write: write, isImmediate: isImmediate, interval: keyInterval)
    }
    guard writing == nil else { return actions }
    let sinceLast = lastWrite.map { now - $0 }
    let isQuiet = urgency == .throttled && sinceLast.map { $0 >= interval } ?? true
    if pending?.isImmediate == true || (isQuiet && !isScheduled && writesQuietChangesAtOnce) {
      return actions + take(now: now)
    }
    guard !isScheduled else { return actions }
    isScheduled = true
    let delay =
      urgency == .background
      ? max(interval, .zero) : max(interval - (sinceLast ?? interval), .zero)
    actions.append(.schedule(after: delay))
    return actions
  }

  /// The delay asked for by ``RecordAction/schedule(after:retry:)`` has passed.
  mutating func scheduledTimeCame(now: Duration) -> [RecordAction<Stamp>] {
    isScheduled = false
    guard writing == nil, pending != nil else { return [] }
    return take(now: now)
  }

  /// Everything pending (and a failed value) must be written now, and `done` called once
  /// every write taken until then has ended.
  mutating func flushRequested(
    now: Duration,
    done: @escaping @Sendable () -> Void
  ) -> [RecordAction<Stamp>] {
    if pending == nil, let failed {
      pending = Pending(write: PendingWrite(encode: failed), isImmediate: true, isRetry: true)
    }
    pending?.isImmediate = true
    let actions = writing == nil && pending != nil ? take(now: now) : []
    let through = writesTaken + (pending == nil ? 0 : 1)
    guard writing != nil || pending != nil else { return actions + [.finishFlushes([done])] }
    flushes.append((through, done))
    return actions
  }

  mutating func take(now: Duration) -> [RecordAction<Stamp>] {
    guard let taken = pending else { return [] }
    pending = nil
    lastWrite = now
    writesTaken += 1
    let mustCheckStore = known == nil || isUnreadable
    let ticket = WriteTicket(
      write: taken.write,
      sequence: writesTaken,
      isUrgent: taken.isImmediate,
      isRetry: taken.isRetry,
      echoes: echoesNextWrite,
      keepingAside: undecodable,
      unchangedContents: watchedContents
    )
    echoesNextWrite = false
    writing = ticket
    return [mustCheckStore ? .checkBeforeWriting(ticket) : .write(ticket)]
  }

  /// The store, read before write `ticket` because the program never read it or could not,
  /// holds `read`: it is written if it holds no value, the value the program knows, or if
  /// writes merge into it; otherwise the write fails with `refusal`: the store cannot be
  /// read (the write is made again later), or its value is one the program never loaded,
  /// which is played back.
  mutating func checkedBeforeWriting(
    _ ticket: WriteTicket,
    _ read: Result<StoredSnapshot<Stamp>, any Error>,
    refusal: any Error,
    now: Duration
  ) -> [RecordAction<Stamp>] {
    switch read {
    case .success(let snapshot)
    where snapshot.contents == nil || snapshot.stamp == known || mergesWrites:
      know(snapshot)
      return [.write(ticket)]
    case .success(let snapshot):
      // NB: Accepted first, so that the pending change it replaces is not written after it.
      let delivery = accept(snapshot)
      return writeEnded(ticket, .refused(refusal, retried: false), now: now) + delivery
    case .failure:
      isUnreadable = true
      return writeEnded(ticket, .refused(refusal, retried: true), now: now)
    }
  }

  /// Write `ticket` ended.
  mutating func writeEnded(
    _ ticket: WriteTicket,
    _ outcome: WriteOutcome<Stamp>,
    now: Duration
  ) -> [RecordAction<Stamp>] {
    writing = nil
    var actions: [RecordAction<Stamp>] = []
    let result: Result<Void, any Error>
    switch outcome {
    case .wrote(let stamp, let contents):
      actions += wrote(stamp, contents)
      retryDelay.reset()
      result = .success(())
      if ticket.echoes { actions += readBack() }
    case .skipped:
      actions += forgetFailed()
      result = .success(())
    case .refused(let error, let isRetried):
      if isRetried {
        actions += forgetFailed()
        failed = ticket.write.encode
      }
      result = .failure(error)
    case .failed(let error):
      actions += forgetFailed()
      failed = ticket.write.encode
      result = .failure(error)
      if retriesAfterDelay, isReachable, !isRetryScheduled {
        isRetryScheduled = true
        actions.append(.schedule(after: retryDelay.next(), retry: true))
      }
    }
    lastResult = result
    if !ticket.write.continuations.isEmpty {
      actions.append(.resume(ticket.write.continuations, result))
    }
    if ticket.isRetry { actions.append(.reportRetry(result)) }
    let finished = flushes.filter { $0.through <= ticket.sequence }
    if !finished.isEmpty {
      flushes.removeAll { $0.through <= ticket.sequence }
      actions.append(.finishFlushes(finished.map { $0.done }))
    }
    if pending?.isImmediate == true {
      actions += take(now: now)
    } else if let pending, !isScheduled {
      isScheduled = true
      let sinceLast = now - (lastWrite ?? now)
      actions.append(.schedule(after: max((pending.interval ?? interval) - sinceLast, .zero)))
    }
    if writing == nil { actions += readAgainIfAsked() }
    return actions + unregisterIfIdle() + releaseIfUnused()
  }

  /// The delay asked for by ``RecordAction/schedule(after:retry:)`` has passed: the failed
  /// value is written again, unless the store is unreachable (reaching it again writes it),
  /// or a newer change is waiting or under way; a store that could not be read is read again.
  mutating func retryTimeCame(now: Duration) -> [RecordAction<Stamp>] {
    isRetryScheduled = false
    guard isReachable else { return [] }
    guard let failed, pending == nil, !isWriting else {
      return isUnreadable ? changeNoticed(stamp: nil) : []
    }
    pending = Pending(write: PendingWrite(encode: failed), isImmediate: true, isRetry: true)
    readsAgain = true
    return take(now: now)
  }

  // MARK: Reaching the store

  /// The store can no longer be reached, because of `error`: failed writes wait until it
  /// can, and the subscribers are told.
  mutating func becameUnreachable(because error: any Error) -> [RecordAction<Stamp>] {
    isReachable = false
    watchedContents = nil
    deliversKnown = true
    // A load that read before is older than the loss: handed over after it, it would say the
    // store was read.
    knowledge &+= 1
    // A read under way may still succeed: the store is read again once it ended, and fails.
    guard subscribers > 0, reading == nil else {
      readsAgain = subscribers > 0
      return []
    }
    return deliver(.failure(error))
  }

  /// The store can be reached again — or for the first time. A failed write is made first;
  /// then the store is read, and after a loss delivered whatever it holds.
  mutating func becameReachable(afterLoss: Bool, now: Duration) -> [RecordAction<Stamp>] {
    isReachable = true
    retryDelay.reset()
    if afterLoss { deliversKnown = true }
    if pending == nil, let failed {
      pending = Pending(write: PendingWrite(encode: failed), isImmediate: true, isRetry: true)
    }
    // A throttled change waits for its turn, unless the store was lost: then it goes
    // first, so that the read does not take it back.
    guard writing != nil || pending?.isImmediate == true || (afterLoss && pending != nil) else {
      return changeNoticed(stamp: nil)
    }
    pending?.isImmediate = true
    readsAgain = true
    return writing == nil ? take(now: now) : []
  }

  // MARK: Transactions

  /// A transaction of the store began: a read made meanwhile may find the store before or
  /// after it, so it is made again once the transaction ended.
  mutating func transactionBegan() {
    isInTransaction = true
    writesTaken += 1
  }

  /// The transaction read `read` with every writer locked out: it is not played back, since
  /// the transaction starts from it and the shared values then take its result.
  mutating func transactionRead(_ read: Result<StoredSnapshot<Stamp>, any Error>) {
    guard case .success(let snapshot) = read else { return }
    know(snapshot)
  }

  /// The transaction ended, having written `contents` stamped `stamp` if it wrote anything.
  ///
  /// What it wrote supersedes the pending change, and is read back and delivered if a
  /// delivery is under way, which may reach the shared values after it. If its outcome is
  /// unknown (`outcomeUnknown`: the store may hold its change, which the shared values do
  /// not, and no notice of it may come, as a change of the program's own), the store is read
  /// back and delivered whatever it holds, once it can be read: never written again, which
  /// would make the change twice.
  mutating func transactionEnded(
    wrote: (stamp: Stamp, contents: Data)?,
    outcomeUnknown: Bool = false
  ) -> [RecordAction<Stamp>] {
    isInTransaction = false
    var actions: [RecordAction<Stamp>] = []
    if outcomeUnknown { actions += readBack() }
    if let wrote {
      actions += self.wrote(wrote.stamp, wrote.contents)
      actions += supersedePending()
      if isDelivering { actions += readBack() }
    }
    return actions + readAgainIfAsked() + unregisterIfIdle() + resumeLoadsIfQuiet()
  }
}
