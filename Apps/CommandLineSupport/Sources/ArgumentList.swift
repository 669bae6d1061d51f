/// A command line sorted into help, options with their values, and operands, by the rules
/// every example app follows.
///
/// ```swift
/// let words = ["--store", "a.plist", "increment", "5"]
/// let list = try ArgumentList(words, options: ["--store": "a path"])
/// list.value(of: "--store")  // "a.plist"
/// list.operands              // ["increment", "5"]
/// ```
///
/// - `-h` or `--help` asks for help; the rest of the line is not read.
/// - An option the command declares takes a value: `--store a.plist` or `--store=a.plist`.
///   Given twice, the last value counts.
/// - `--` ends the options: every later word is an operand, even one starting with `-`.
/// - `-` and negative numbers (`-3`) are operands, so that the command can say what is wrong
///   with the number rather than call it an unknown option.
/// - Any other word starting with `-` is an unknown option.
public struct ArgumentList: Equatable, Sendable {
  /// The words that are not options or their values, in order.
  public private(set) var operands: [String] = []
  /// Whether `-h` or `--help` was given.
  public private(set) var isHelpRequested = false
  private var values: [String: String] = [:]

  /// Sorts a command line.
  ///
  /// - Parameters:
  ///   - arguments: The command-line arguments, without the program name.
  ///   - options: The options that take a value, each with what the value is (`"a path"`),
  ///     which completes the error for a missing value: `'--store' needs a path.`
  /// - Throws: A ``UsageError`` for an unknown option or an option without its value.
  public init(
    _ arguments: some Sequence<String>,
    options: [String: String] = [:]
  ) throws(UsageError) {
    var arguments = arguments.makeIterator()
    var isReadingOptions = true
    while let argument = arguments.next() {
      let name = String(argument.prefix { $0 != "=" })
      switch argument {
      case _ where !isReadingOptions || !Self.isOption(argument):
        operands.append(argument)
      case "--":
        isReadingOptions = false
      case "-h", "--help":
        isHelpRequested = true
        return
      case _ where options[name] != nil && name != argument:
        values[name] = String(argument.dropFirst(name.count + 1))
      case _ where options[argument] != nil:
        guard let value = arguments.next() else {
          throw UsageError("'\(argument)' needs \(options[argument] ?? "a value").")
        }
        values[argument] = value
      default:
        throw UsageError("Unknown option '\(argument)'.")
      }
    }
  }

  /// The value given to an option, if it was given.
  ///
  /// - Parameter option: The option, such as `--store`.
  /// - Returns: Its last value, or `nil` if the command line does not have it.
  public func value(of option: String) -> String? {
    values[option]
  }

  /// Throws unless the command line has no operands.
  ///
  /// - Throws: A ``UsageError`` naming the first operand.
  public func expectNoOperands() throws(UsageError) {
    if let operand = operands.first { throw UsageError("Unexpected argument '\(operand)'.") }
  }

  /// Whether a word is an option rather than an operand such as `-` or `-3`.
  private static func isOption(_ word: String) -> Bool {
    word.hasPrefix("-") && word != "-" && Double(word) == nil
  }
}
