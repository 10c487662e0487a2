//===- Reducer.h - The reducers of reduce, reduce-window and scatter -*- C++ -*-===//
//
// Private to runtime/Vertices. HLO's reducers as the vertices apply them:
// integers wrap (computed unsigned), a NaN operand of maximum / minimum
// gives NaN, and the logical ones apply to integers and pred only.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_RUNTIME_VERTICES_REDUCER_H
#define TESSERA_RUNTIME_VERTICES_REDUCER_H

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>
#include <type_traits>

namespace tessera::runtime {

enum class Reducer { Add, Mul, Max, Min, And, Or, Invalid };

inline Reducer parseReducer(llvm::StringRef op) {
  return llvm::StringSwitch<Reducer>(op)
      .Case("add", Reducer::Add)
      .Case("multiply", Reducer::Mul)
      .Case("maximum", Reducer::Max)
      .Case("minimum", Reducer::Min)
      .Case("and", Reducer::And)
      .Case("or", Reducer::Or)
      .Default(Reducer::Invalid);
}

template <typename C> inline C combine(Reducer r, C a, C b) {
  switch (r) {
  case Reducer::Add:
    if constexpr (std::is_integral_v<C>)
      return C(std::make_unsigned_t<C>(a) + std::make_unsigned_t<C>(b));
    return a + b;
  case Reducer::Mul:
    if constexpr (std::is_integral_v<C>)
      return C(std::make_unsigned_t<C>(a) * std::make_unsigned_t<C>(b));
    return a * b;
  case Reducer::Max:
    if constexpr (std::is_floating_point_v<C>)
      if (std::isnan(a) || std::isnan(b))
        return std::numeric_limits<C>::quiet_NaN();
    return a > b ? a : b;
  case Reducer::Min:
    if constexpr (std::is_floating_point_v<C>)
      if (std::isnan(a) || std::isnan(b))
        return std::numeric_limits<C>::quiet_NaN();
    return a < b ? a : b;
  case Reducer::And:
    if constexpr (std::is_integral_v<C>)
      return C(a & b);
    return a;
  case Reducer::Or:
    if constexpr (std::is_integral_v<C>)
      return C(a | b);
    return a;
  case Reducer::Invalid:
    break;
  }
  return a;
}

/// The reducer's identity, for an output with no inputs and no init.
template <typename C> inline C identity(Reducer r) {
  switch (r) {
  case Reducer::Mul:
    return C(1);
  case Reducer::Max:
    return std::numeric_limits<C>::has_infinity
               ? -std::numeric_limits<C>::infinity()
               : std::numeric_limits<C>::lowest();
  case Reducer::Min:
    return std::numeric_limits<C>::has_infinity
               ? std::numeric_limits<C>::infinity()
               : std::numeric_limits<C>::max();
  case Reducer::And:
    return C(~std::make_unsigned_t<std::conditional_t<
             std::is_integral_v<C>, C, int>>(0));
  default:
    return C(0);
  }
}

} // namespace tessera::runtime

#endif // TESSERA_RUNTIME_VERTICES_REDUCER_H
