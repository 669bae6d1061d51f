public import Foundation

extension UUID {
  /// A UUID made from a small integer, for tests that expect known identifiers:
  /// `UUID(0)` is `00000000-0000-0000-0000-000000000000`, `UUID(26)` is
  /// `00000000-0000-0000-0000-00000000001A`.
  ///
  /// ```swift
  /// withDependencies {
  ///   $0.uuid = .incrementing
  /// } operation: {
  ///   let model = TodosModel()
  ///   model.addButtonTapped()
  ///   #expect(model.todos.map(\.id) == [UUID(0)])
  /// }
  /// ```
  ///
  /// These are the UUIDs ``UUIDGenerator/incrementing`` returns, in order.
  ///
  /// - Parameter intValue: The integer, in the last 12 hexadecimal digits: from 0 to
  ///   2⁴⁸ − 1. Another value is a programmer error: it is reported as an issue, and its
  ///   last 48 bits are used.
  public init(_ intValue: Int) {
    if !(0..<(1 << 48)).contains(intValue) {
      reportIssue("UUID(\(intValue)): the integer must be from 0 to 2^48 - 1.")
    }
    let digits = String(UInt64(truncatingIfNeeded: intValue) & 0xFFFF_FFFF_FFFF, radix: 16)
    let node = String(repeating: "0", count: 12 - digits.count) + digits
    self.init(uuidString: "00000000-0000-0000-0000-\(node)")!
  }
}
