/// A key's hold on its record: the record stays in its store's registry while a key holds it
/// or it has work to do.
package final class RecordHolder<IO: RecordIO>: Sendable {
  package let record: Record<IO>
  private let onRemove: @Sendable () -> Void

  /// - Parameter onRemove: Called when the hold ends, before the record hears of it.
  package init(record: Record<IO>, onRemove: @escaping @Sendable () -> Void = {}) {
    self.record = record
    self.onRemove = onRemove
  }

  deinit {
    onRemove()
    record.holderRemoved()
  }
}
