import SharingDependencies
import Synchronization

/// The storage behind ``Shared`` and ``SharedReader``: a root holding a value, or a view
/// derived from another reference.
///
/// Subclasses override the members marked "Subclass responsibility".
class SharedReference<Value>: @unchecked Sendable, CustomStringConvertible {
  // NB: Unchecked: 'redirection' is guarded by 'redirectionLock' and flagged by an atomic;
  //     all other state lives in subclasses, each guarded by a lock or immutable.
  private let redirectionLock = Lock()
  private var redirection: SharedReference<Value>?
  private let isRedirected = Atomic<Bool>(false)

  /// The reference to use now: this one, or the one it was redirected to by
  /// ``Shared/load(_:)`` or by assigning a projected value.
  @inline(__always)
  final var resolved: SharedReference<Value> {
    guard isRedirected.load(ordering: .acquiring) else { return self }
    return redirectionTarget()
  }

  /// The current value of ``resolved``, recorded as an access for observation.
  @inline(__always)
  final func resolvedRead() -> Value {
    // NB: Not 'resolved.read()': returning 'self' from 'resolved' costs a retain and a
    //     release on every read; calling 'read()' on 'self' costs neither.
    guard isRedirected.load(ordering: .acquiring) else { return read() }
    return redirectionTarget().read()
  }

  /// Mutates the value of ``resolved`` with exclusive access.
  @inline(__always)
  final func resolvedWithLock<R, E: Error>(
    _ body: (inout Value) throws(E) -> R
  ) throws(E) -> R {
    // NB: Not 'resolved.withLock(body)', for the reason given in 'resolvedRead()'.
    guard isRedirected.load(ordering: .acquiring) else { return try withLock(body) }
    return try redirectionTarget().withLock(body)
  }

  /// The member at `offset` in the value of ``resolved``; see ``readMember(at:as:)``.
  @inline(__always)
  final func resolvedReadMember<Member>(at offset: Int, as type: Member.Type) -> Member {
    guard isRedirected.load(ordering: .acquiring) else { return readMember(at: offset, as: type) }
    return redirectionTarget().readMember(at: offset, as: type)
  }

  /// Mutates the member at `offset` in the value of ``resolved``; see
  /// ``withMemberLock(at:as:_:)``.
  @inline(__always)
  final func resolvedWithMemberLock<Member, R, E: Error>(
    at offset: Int,
    as type: Member.Type,
    _ body: (inout Member) throws(E) -> R
  ) throws(E) -> R {
    guard isRedirected.load(ordering: .acquiring) else {
      return try withMemberLock(at: offset, as: type, body)
    }
    return try redirectionTarget().withMemberLock(at: offset, as: type, body)
  }

  // NB: Out of line: the recursion would keep 'resolved' from being inlined.
  @inline(never)
  private final func redirectionTarget() -> SharedReference<Value> {
    redirectionLock.withLock { redirection }?.resolved ?? self
  }

  /// Makes every holder of this reference use `target` from now on, and tells those who
  /// observe its value that it changed.
  final func redirect(to target: SharedReference<Value>) {
    guard target !== self else { return }
    resolved.notifyingObservers {
      redirectionLock.withLock { redirection = target }
      isRedirected.store(true, ordering: .releasing)
    }
  }

  // MARK: Subclass responsibility

  /// The current value, recorded as an access for observation.
  func read() -> Value { preconditionFailure("Subclass responsibility") }

  /// Mutates the value with exclusive access.
  func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
    preconditionFailure("Subclass responsibility")
  }

  /// Registers a closure called after every change; returns a token for ``removeObserver(_:)``.
  func addObserver(_ onChange: @escaping @Sendable () -> Void) -> ObserverToken {
    preconditionFailure("Subclass responsibility")
  }

  /// Makes a change that is not a write, such as a redirection, telling the value's
  /// observers as a write would.
  func notifyingObservers(of change: () -> Void) {
    preconditionFailure("Subclass responsibility")
  }

  var description: String { preconditionFailure("Subclass responsibility") }

  // MARK: Stored members, overridden to reach them without copying the whole value

  /// The member stored `offset` bytes into the value, recorded as an access for observation.
  ///
  /// `offset` is a stored property's, from `MemoryLayout<Value>.offset(of:)`, and `Member`
  /// is that property's type.
  func readMember<Member>(at offset: Int, as type: Member.Type) -> Member {
    let value = read()
    return withUnsafePointer(to: value) { pointer in
      UnsafeRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Member.self).pointee
    }
  }

  /// Mutates the member stored `offset` bytes into the value with exclusive access; see
  /// ``readMember(at:as:)``.
  func withMemberLock<Member, R, E: Error>(
    at offset: Int,
    as type: Member.Type,
    _ body: (inout Member) throws(E) -> R
  ) throws(E) -> R {
    try withLock { (value: inout Value) throws(E) -> R in
      try withUnsafeMutablePointer(to: &value) { (pointer) throws(E) -> R in
        try body(
          &UnsafeMutableRawPointer(pointer).advanced(by: offset)
            .assumingMemoryBound(to: Member.self).pointee
        )
      }
    }
  }

  /// The identity of the value this reference holds or views: that of its base for a
  /// handle, its own for anything else.
  var identity: ObjectIdentifier { ObjectIdentifier(self) }

  // MARK: Persistence, forwarded to the root by default

  /// The reference whose persistence this reference uses.
  var persistenceSource: (any PersistenceSource)? { nil }
}

/// Identifies a change observer registered with ``SharedReference/addObserver(_:)``.
struct ObserverToken: Sendable {
  let remove: @Sendable () -> Void
}

/// The persistence state of a root reference, reached from any reference derived from it.
protocol PersistenceSource: AnyObject, Sendable {
  var isLoading: Bool { get }
  var loadError: (any Error)? { get }
  var saveError: (any Error)? { get }
  func load() async throws
  func save() async throws
}
