import SharingDependencies

/// A root reference kept in sync with a ``SharedReaderKey``: loaded when created, updated by
/// the key's subscription, and saved through the key after every change the program makes.
final class PersistentReference<Value: Sendable>: RootReference<Value>, PersistenceSource,
  @unchecked Sendable
{
  // NB: Unchecked: mutable state lives in 'state', behind a lock; the rest is immutable.
  let key: any SharedReaderKey<Value>
  let initialValue: Value
  private let registration: Registration?
  private let state: Locked<State>

  private struct State {
    var saver: (any SharedKey<Value>)?
    var subscription: SharedSubscription?
    var isLoading = false
    var loadError: (any Error)?
    var saveError: (any Error)?
    var needsSave = false
    var isSaving = false
  }

  /// Where the reference is registered, to unregister it when it goes away.
  struct Registration: Sendable {
    let registry: PersistentReferences
    let id: KeyID
  }

  init(
    key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    initialValue: Value,
    registration: Registration?
  ) {
    self.key = key
    self.initialValue = initialValue
    self.registration = registration
    self.state = Locked(State(saver: saver))
    super.init(value: initialValue, hasWriteHook: true)
  }

  deinit {
    state.withLock { $0.subscription }?.cancel()
    registration?.registry.remove(registration!.id, ifIdenticalTo: ObjectIdentifier(self))
  }

  /// Loads the value (unless it is already known) and subscribes to the store.
  func start(loading: Bool) {
    if loading {
      state.withLock { $0.isLoading = true }
      key.load(
        context: .initialValue(initialValue),
        continuation: LoadContinuation(self.description) { [weak self] result in
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
        }
      )
    )
    state.withLock { $0.subscription = subscription }
  }

  /// Lets a reference created for reading save as well, once a writable key uses it.
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

  private func finishSave(_ result: Result<Void, any Error>) {
    updateStatus { state in
      if case .failure(let error) = result {
        state.saveError = error
      } else {
        state.saveError = nil
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
    let drains = state.withLock { state in
      guard state.saver != nil else { return false }
      state.needsSave = true
      defer { state.isSaving = true }
      return !state.isSaving
    }
    guard drains else { return }
    // NB: One thread at a time hands values to the key, always reading the latest value,
    //     so the last save the key sees carries the last write.
    while let saver = state.withLock({ state -> (any SharedKey<Value>)? in
      guard state.needsSave, let saver = state.saver else {
        state.isSaving = false
        return nil
      }
      state.needsSave = false
      return saver
    }) {
      saver.save(
        readUntracked(),
        context: .didSet,
        continuation: SaveContinuation(self.description) { [weak self] result in
          self?.finishSave(result)
        }
      )
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
    let description = self.description
    try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
      key.load(
        context: .userInitiated,
        continuation: LoadContinuation(description) { [weak self] result in
          self?.finishLoad(result, resetsToInitialValue: true)
          waiter.resume(with: result.map { _ in () })
        }
      )
    }
  }

  func save() async throws {
    guard let saver = state.withLock(\.saver) else { return }
    let value = readUntracked()
    let description = self.description
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

  override var description: String { String(reflecting: key) }
}
