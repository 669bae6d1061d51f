import Dispatch
import SharingDependencies

/// A root reference kept in sync with a ``SharedReaderKey``: loaded when created, updated by
/// the key's subscription, and saved through the key after every change the program makes.
final class PersistentReference<Value: Sendable>: RootReference<Value>, PersistenceSource,
  @unchecked Sendable
{
  // NB: Unchecked: mutable state lives in 'state', behind a lock; the rest is immutable.
  let key: any SharedReaderKey<Value>
  let initialValue: Value
  /// How writes are made transactions of the store, if the key is a ``CoordinatedSharedKey``.
  let coordination: Coordination<Value>?
  private let registration: Registration?
  private let state: Locked<State>

  private struct State {
    var saver: (any SharedKey<Value>)?
    var subscription: SharedSubscription?
    var isLoading = false
    var loadError: (any Error)?
    var saveError: (any Error)?
    /// Who saves the value, and when.
    var turns = TurnClaim<DispatchSemaphore>()
    /// How many writes the program has made, to tell whether one came during a save.
    var writes = 0
  }

  /// Where the reference is registered, to unregister it when it goes away.
  struct Registration: Sendable {
    let registry: PersistentReferences
    let id: KeyID
  }

  /// - Parameter storesReference: Whether the key's store keeps this reference, as a
  ///   ``ReferenceStoringKeyID``'s does, holding every write without a save.
  init(
    key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    initialValue: Value,
    storesReference: Bool,
    registration: Registration?
  ) {
    self.key = key
    self.initialValue = initialValue
    self.registration = registration
    // NB: A key that can save saves through itself, even for a reader: the key instance
    //     that subscribed is the one that writes, so that a key can tell its own writes from
    //     others' (appStorage does). Readers never write, so never save.
    // NB: 'saver', when given, is 'key' itself: the cast, which checks 'Value' by demangling
    //     type names in the runtime, is only made for readers.
    let saver = saver ?? key as? any SharedKey<Value>
    self.state = Locked(State(saver: saver))
    self.coordination =
      storesReference ? nil : saver?._coordinatedKey.map(Coordination.init(key:))
    // NB: A key whose store keeps this reference has nothing to save a write to.
    super.init(value: initialValue, hasWriteHook: !storesReference)
  }

  deinit {
    state.withLock { $0.subscription }?.cancel()
    if let registration {
      registration.registry.remove(registration.id, ifIdenticalTo: ObjectIdentifier(self))
    }
  }

  /// Starts from the value of the store that keeps this reference, as loading would find it.
  ///
  /// There is no load and no subscription, with their continuation, closures and status
  /// updates: the store is read where it is, and nothing but shared values changes it.
  /// Nobody sees the reference before it is started, so no one could see it loading.
  func start(from store: some ReferenceStoringKeyID) {
    if let value = store.storedValue(of: Value.self) {
      write(from: .store) { $0 = value }
    }
  }

  /// Loads the value (unless it is already known) and subscribes to the store.
  func start(loading: Bool) {
    if loading {
      state.withLock { $0.isLoading = true }
      let key = self.key
      key.load(
        context: .initialValue(initialValue),
        // NB: The description captures the key, not 'self': a continuation a key keeps
        //     must not keep the reference (and so its subscription) alive.
        continuation: LoadContinuation(
          String(describing: key),
          writeBack: { [weak self] in self?.finishSave($0) }
        ) { [weak self] result in
          self?.finishLoad(result, resetsToInitialValue: false)
        }
      )
    }
    let subscription = key.subscribe(
      context: .initialValue(initialValue),
      subscriber: SharedSubscriber(
        callback: { [weak self] result in
          self?.finishLoad(result, resetsToInitialValue: true)
        },
        onLoading: { [weak self] isLoading in
          self?.updateStatus { $0.isLoading = isLoading }
        },
        writeBack: { [weak self] in self?.finishSave($0) }
      )
    )
    state.withLock { $0.subscription = subscription }
  }

  /// Lets a reference created by a key that cannot save save as well, once a writable key
  /// with the same identity uses it.
  func adopt(saver: (any SharedKey<Value>)?) {
    guard let saver else { return }
    state.withLock { state in
      if state.saver == nil { state.saver = saver }
    }
  }

  private func finishLoad(_ result: Result<Value?, any Error>, resetsToInitialValue: Bool) {
    switch result {
    case .success(let value?):
      write(from: .store) { $0 = value }
    case .success(nil) where resetsToInitialValue:
      write(from: .store) { $0 = initialValue }
    case .success(nil), .failure:
      break
    }
    updateStatus { state in
      state.isLoading = false
      if case .failure(let error) = result {
        state.loadError = error
      } else {
        state.loadError = nil
      }
    }
  }

  /// Records how a save of the value went, in ``saveError``.
  func finishSave(_ result: Result<Void, any Error>) {
    updateStatus { state in
      if case .failure(let error) = result {
        state.saveError = error
      } else {
        // NB: The store now holds the value in memory, so an error a subscriber reported
        //     about what the store held before no longer applies.
        state.saveError = nil
        state.loadError = nil
      }
    }
  }

  private func updateStatus(_ update: (inout State) -> Void) {
    // NB: Observers register through reads, which create the center: without one, nobody
    //     observes the status, and the update skips Observation, as writes of the value do.
    //     A center created during the update is told about it, as in a write.
    let centerBefore = existingObservationCenter
    centerBefore?._withUnsafeGuaranteedRef { $0.willSetStatus() }
    state.withLock(update)
    let centerAfter = existingObservationCenter
    if centerBefore == nil, let centerAfter {
      centerAfter._withUnsafeGuaranteedRef { $0.willSetStatus() }
    }
    centerAfter?._withUnsafeGuaranteedRef { $0.didSetStatus() }
  }

  // MARK: Saving

  override func didWrite() {
    // NB: One thread at a time hands values to the key, always reading the latest value,
    //     so the last save the key sees carries the last write; 'TurnClaim' decides who.
    var saver: (any SharedKey<Value>)?
    TurnClaim.takeTurns(
      claiming: { requestSave(claimingInto: &saver) },
      {
        // NB: The continuation holds the reference until the key finishes the write, so a
        //     shared value created for the key meanwhile finds it and starts from the value
        //     being written, not from the store's older one.
        let continuation = SaveContinuation(String(describing: self.key)) { result in
          self.finishSave(result)
        }
        saver?.save(
          reading: { self.readUntracked() },
          context: .didSet,
          continuation: continuation
        )
      },
      finishing: { finishSaving(claimingInto: &saver) }
    )
  }

  /// Records a write, and claims the save and the key to save with if this thread saves it.
  private func requestSave(
    claimingInto saver: inout (any SharedKey<Value>)?
  ) -> TurnClaim<DispatchSemaphore>.ChangeAction {
    let thread = currentThreadID()
    return state.withLock { state in
      guard let current = state.saver else { return .none }
      state.writes &+= 1
      let action = state.turns.changed(by: thread)
      if case .none = action { return action }
      saver = current
      return action
    }
  }

  /// Ends a save, and claims the key to save with if this thread saves again.
  private func finishSaving(
    claimingInto saver: inout (any SharedKey<Value>)?
  ) -> TurnClaim<DispatchSemaphore>.FinishAction {
    state.withLock { state in
      let action = state.turns.turnFinished()
      saver = state.saver
      return action
    }
  }

  // MARK: PersistenceSource

  var isLoading: Bool { status(\.isLoading) }
  var loadError: (any Error)? { status(\.loadError) }
  var saveError: (any Error)? { status(\.saveError) }

  private func status<T>(_ keyPath: KeyPath<State, T>) -> T {
    observationCenter()._withUnsafeGuaranteedRef { $0.accessStatus() }
    return state.withLock { $0[keyPath: keyPath] }
  }

  func load() async throws {
    updateStatus { $0.isLoading = true }
    let description = String(describing: key)
    try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
      key.load(
        context: .userInitiated,
        continuation: LoadContinuation(
          description,
          writeBack: { [weak self] in self?.finishSave($0) }
        ) { [weak self] result in
          // NB: A user-initiated load that finds nothing keeps the current value.
          self?.finishLoad(result, resetsToInitialValue: false)
          waiter.resume(with: result.map { _ in () })
        }
      )
    }
  }

  func save() async throws {
    // NB: A key whose store keeps this reference holds every write already: saving a copy
    //     would replace the reference in the store, and later writes would not reach it.
    guard hasWriteHook else { return }
    let description = String(describing: key)
    var saver: (any SharedKey<Value>)?
    let writes = state.withLock { state in
      saver = state.saver
      return state.writes
    }
    guard let saver else { return }
    let value = readUntracked()
    // NB: A write made while this save runs may have been handed to the key before it, and
    //     replaced by this older value: the latest value must be saved last, so save again.
    defer {
      if state.withLock({ $0.writes }) != writes { didWrite() }
    }
    try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
      saver.save(
        value,
        context: .userInitiated,
        continuation: SaveContinuation(description) { [weak self] result in
          self?.finishSave(result)
          waiter.resume(with: result)
        }
      )
    }
  }

  override var persistenceSource: (any PersistenceSource)? { self }

  override var keyDescription: String? { String(reflecting: key) }

  override var description: String { String(reflecting: key) }
}
