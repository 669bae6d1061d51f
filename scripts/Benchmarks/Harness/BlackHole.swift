/// Consumes a value so the optimiser cannot remove the work that produced it.
// NB: Not optimised, so the compiler cannot see that the argument is unused.
@_optimize(none)
@inline(never)
func blackHole<T>(_ value: T) {}
