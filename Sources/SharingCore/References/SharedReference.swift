import SharingDependencies
// NB: Public: the redirection flag is read in code inlined into callers of 'Shared'.
public import Synchronization

/// The storage behind ``Shared`` and ``SharedReader``: a root holding a value, or a view
/// derived from another reference.
///
/// Subclasses override the members marked "Subclass responsibility".
@usableFromInline
class SharedReference<Value>: @unchecked Sendable, CustomStringConvertible {
  // NB: Unchecked: 'redirection' is atomic and guards its own target; all other state lives
  //     in subclasses, each guarded by a lock or immutable.
  /// Where this reference was redirected, once it was: allocated at the first redirection,
  /// so that a reference that never is (nearly all) holds one word for it.
  // NB: Not generic over 'Value': destroying an atomic of a generic type looks up its
  //     metadata, about 2,000 instructions at every deallocation of a reference.
  @usableFromInline let redirection = Atomic<Unmanaged<Redirection>?>(nil)
  /// Whether this is a ``HandleReference``, which reads and writes its base unchanged.
  // NB: Inlined reads and writes of a handle go to its base directly, one dynamic call fewer
  //     than through the handle. A 'Bool' fills padding: no reference grows.
  @usableFromInline final let isHandle: Bool

  init() {
    self.isHandle = false
  }

  init(isHandle: Bool) {
    self.isHandle = isHandle
  }

  deinit {
    redirection.load(ordering: .acquiring)?.release()
  }

  /// The reference to use now: this one, or the one it was redirected to by
  /// ``Shared/load(_:)`` or by assigning a projected value.
  @inline(__always)
  final var resolved: SharedReference<Value> {
    guard redirection.load(ordering: .acquiring) != nil else { return self }
    return redirectionTarget()
  }

  /// The current value of ``resolved``, recorded as an access for observation.
  // NB: Inlined into the caller of 'wrappedValue', so that a read is one dynamic call.
  @inlinable @inline(__always)
  final func resolvedRead() -> Value {
    // NB: Not 'resolved.read()': returning 'self' from 'resolved' costs a retain and a
    //     release on every read; calling 'read()' on 'self' costs neither.
    guard redirection.load(ordering: .acquiring) != nil else { return readThroughHandle() }
    return redirectionTarget().readThroughHandle()
  }

  /// ``read()``, of the base if this is a handle.
  @inlinable @inline(__always)
  final func readThroughHandle() -> Value {
    guard isHandle else { return read() }
    return unsafeDowncast(self, to: ForwardingReference<Value, Value>.self).base.read()
  }

  /// ``modify(_:)``, of the base if this is a handle.
  @inlinable @inline(__always)
  final func modifyThroughHandle(_ body: (inout Value) -> Bool) {
    guard isHandle else { return modify(body) }
    unsafeDowncast(self, to: ForwardingReference<Value, Value>.self).base.modify(body)
  }

  /// Mutates the value of ``resolved`` with exclusive access.
  @inlinable @inline(__always)
  final func resolvedWithLock<R, E: Error>(
    _ body: (inout Value) throws(E) -> R
  ) throws(E) -> R {
    // NB: Not 'resolved.withLock(body)', for the reason given in 'resolvedRead()'.
    guard redirection.load(ordering: .acquiring) != nil else { return try withLock(body) }
    return try redirectionTarget().withLock(body)
  }

  /// Mutates the value with exclusive access, through ``modify(_:)``.
  // NB: Inlined into the caller of 'Shared.withLock', so that the result and the error have
  //     the caller's types: references are handed a closure that neither throws nor returns
  //     anything but whether it threw, rather than passing both indirectly through a generic
  //     call at each level.
  @inlinable @inline(__always)
  final func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
    var result: Result<R, E>?
    modifyThroughHandle { value in
      do throws(E) {
        result = .success(try body(&value))
        return true
      } catch {
        result = .failure(error)
        return false
      }
    }
    return try result.unsafelyUnwrapped.get()
  }

  // NB: Out of line: the recursion would keep 'resolved' from being inlined.
  @usableFromInline @inline(never)
  final func redirectionTarget() -> SharedReference<Value> {
    guard let redirection = redirection.load(ordering: .acquiring) else { return self }
    // NB: Not a cast, which looks up the metadata of the generic class: a reference is
    //     only ever redirected to a reference of its own value type.
    let target = redirection._withUnsafeGuaranteedRef { $0.target }
    return unsafeDowncast(target, to: SharedReference<Value>.self).resolved
  }

  /// Makes every holder of this reference use `target` from now on, and tells those who
  /// observe its value that it changed.
  final func redirect(to target: SharedReference<Value>) {
    guard target !== self else { return }
    resolved.notifyingObservers {
      // NB: The target is set even on a redirection just created with it: another thread
      //     may have created it first, with its own target, and this redirection comes after.
      redirection.storeIfNil { Redirection(target: target) }
        ._withUnsafeGuaranteedRef { $0.target = target }
    }
  }

  // MARK: Subclass responsibility

  /// The current value, recorded as an access for observation.
  @usableFromInline
  func read() -> Value { preconditionFailure("Subclass responsibility") }

  /// Mutates the value with exclusive access: what ``withLock(_:)`` calls, without a result
  /// or an error, so that a write passes nothing indirectly.
  ///
  /// `body` returns `false` if `withLock`'s body threw: a transaction of a coordinated key
  /// then changes nothing; other references keep what the body changed before it threw.
  @usableFromInline
  func modify(_ body: (inout Value) -> Bool) {
    preconditionFailure("Subclass responsibility")
  }

  /// Mutates the bytes of the stored member `offset` bytes into the value with exclusive
  /// access: ``modify(_:)`` for a derived reference, not generic over the member's type.
  ///
  /// `offset` is a stored property's, from `MemoryLayout<Value>.offset(of:)`.
  func modifyBytes(at offset: Int, _ body: (UnsafeMutableRawPointer) -> Bool) {
    modify { value in
      withUnsafeMutablePointer(to: &value) { body(UnsafeMutableRawPointer($0) + offset) }
    }
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

  @usableFromInline
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

  /// The identity of the value this reference holds or views: that of the root it views, as
  /// swift-sharing identifies a shared value and the values derived from it.
  var identity: ObjectIdentifier { ObjectIdentifier(self) }

  // MARK: Persistence, forwarded to the root by default

  /// The reference whose persistence this reference uses.
  var persistenceSource: (any PersistenceSource)? { nil }
}

/// Where a redirected ``SharedReference`` points: the reference, of the same value type, that
/// it uses instead of itself.
@usableFromInline
final class Redirection: @unchecked Sendable {
  // NB: Unchecked: 'target' is only accessed with 'lock' held.
  private let lock = Lock()
  private var _target: AnyObject

  init(target: AnyObject) {
    self._target = target
  }

  var target: AnyObject {
    get { lock.withLock { _target } }
    set { lock.withLock { _target = newValue } }
  }
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
