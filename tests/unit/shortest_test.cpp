// The shortest double printer (src/internal/shortest.cpp) against the
// standard library's std::to_chars(double), byte for byte: named rows at
// every boundary of the layout and the algorithm, every power of two with
// its neighbours, short decimals, integers, and random bit patterns.
#include "internal/shortest.hpp"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

namespace {

using cbor_fast::detail::format_shortest;

std::string ours(double v) {
  char buf[48];
  const size_t n = format_shortest(v, buf);
  EXPECT_LE(n, 24u) << v;
  return std::string(buf, n);
}

std::string theirs(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, size_t(r.ptr - buf));
}

/// With mark_integral (JSON): ".0" after a text without '.' or 'e'.
std::string ours_marked(double v) {
  char buf[48];
  const size_t n = format_shortest(v, buf, true);
  return std::string(buf, n);
}
std::string theirs_marked(double v) {
  const std::string t = theirs(v);
  return t.find_first_of(".e") == std::string::npos ? t + ".0" : t;
}

double from_bits(uint64_t b) {
  double v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

struct row {
  const char* name;
  double value;
  const char* text;
};

TEST(shortest, named_rows) {
  const row rows[] = {
      {"zero", 0.0, "0"},
      {"negative zero", -0.0, "-0"},
      {"one", 1.0, "1"},
      {"one half", 0.5, "0.5"},
      {"one tenth", 0.1, "0.1"},
      {"0.1 + 0.2", 0.1 + 0.2, "0.30000000000000004"},
      {"1.5", 1.5, "1.5"},
      {"100 plain", 100.0, "100"},
      {"a canada coordinate", -65.613616999999977, "-65.61361699999998"},
      {"2^53", 9007199254740992.0, "9007199254740992"},
      {"2^53 + 2", 9007199254740994.0, "9007199254740994"},
      {"2^55 plain and exact, not 36028797018963970", 36028797018963968.0, "36028797018963968"},
      {"1e3 plain, shorter than 1e+03", 1000.0, "1000"},
      {"12e3 plain, shorter", 12000.0, "12000"},
      {"0.001 plain on a tie with 1e-03", 0.001, "0.001"},
      {"1e15 exponent, shorter", 1e15, "1e+15"},
      {"1e16 exponent, shorter", 1e16, "1e+16"},
      {"1.2345678901234568e17 plain, shorter", 123456789012345680.0, "123456789012345680"},
      {"1e21", 1e21, "1e+21"},
      {"1e22", 1e22, "1e+22"},
      {"1e23 (not exact)", 1e23, "1e+23"},
      {"1e-5 plain", 1e-5, "1e-05"},
      {"0.0001 exponent, shorter", 0.0001, "1e-04"},
      {"1.5e-7", 1.5e-7, "1.5e-07"},
      {"1e100", 1e100, "1e+100"},
      {"1e-100", 1e-100, "1e-100"},
      {"largest double", std::numeric_limits<double>::max(), "1.7976931348623157e+308"},
      {"smallest normal", std::numeric_limits<double>::min(), "2.2250738585072014e-308"},
      {"largest subnormal", from_bits(0x000fffffffffffffu), "2.225073858507201e-308"},
      {"smallest subnormal", from_bits(1), "5e-324"},
      {"second subnormal", from_bits(2), "1e-323"},
      {"5e-324 * 3", from_bits(3), "1.5e-323"},
      {"negative", -1234.5, "-1234.5"},
      {"the interval includes its end (even mantissa)", 9007199254740993.0, "9007199254740992"},
  };
  for (const row& r : rows) {
    EXPECT_EQ(ours(r.value), r.text) << r.name;
    EXPECT_EQ(theirs(r.value), r.text) << r.name << " (the standard library)";
    EXPECT_EQ(ours_marked(r.value), theirs_marked(r.value)) << r.name << ", marked";
  }
}

TEST(shortest, integral_values_marked_for_json) {
  const row rows[] = {
      {"zero", 0.0, "0.0"},
      {"negative zero", -0.0, "-0.0"},
      {"one", 1.0, "1.0"},
      {"100", 100.0, "100.0"},
      {"2^55 exact", 36028797018963968.0, "36028797018963968.0"},
      {"1e21 exponent: not marked", 1e21, "1e+21"},
      {"1.5 not marked", 1.5, "1.5"},
      {"-12000", -12000.0, "-12000.0"},
  };
  for (const row& r : rows) EXPECT_EQ(ours_marked(r.value), r.text) << r.name;
}

TEST(shortest, every_power_of_two_and_its_neighbours) {
  for (int e = -1074; e <= 1023; ++e) {
    const double p = std::ldexp(1.0, e);
    for (double v : {p, std::nextafter(p, 0.0), std::nextafter(p, HUGE_VAL)}) {
      if (!std::isfinite(v)) continue;
      ASSERT_EQ(ours(v), theirs(v)) << "2^" << e;
      ASSERT_EQ(ours(-v), theirs(-v)) << "-2^" << e;
    }
  }
}

TEST(shortest, short_decimals_and_integers) {
  // d * 10^k for every d of 1 to 4 digits and k in -330..310: the values
  // whose interval ends are exact decimals (the trailing-zero paths).
  for (int k = -330; k <= 310; ++k) {
    for (int d = 1; d < 10000; d += (d < 100 ? 1 : 7)) {
      const std::string s = std::to_string(d) + "e" + std::to_string(k);
      double v = 0;
      std::from_chars(s.data(), s.data() + s.size(), v);
      if (!std::isfinite(v) || v == 0) continue;
      ASSERT_EQ(ours(v), theirs(v)) << s;
    }
  }
  for (int64_t i = 1; i < 200000; ++i) {
    ASSERT_EQ(ours(double(i)), theirs(double(i))) << i;
    ASSERT_EQ(ours_marked(double(i)), theirs_marked(double(i))) << i;
  }
  for (uint64_t i = (uint64_t(1) << 53) - 1000; i < (uint64_t(1) << 53) + 1000; ++i)
    ASSERT_EQ(ours(double(i)), theirs(double(i))) << i;
}

TEST(shortest, random_bit_patterns) {
  std::mt19937_64 rng(20261202);
  for (int i = 0; i < 2000000; ++i) {
    const uint64_t bits = rng();
    const double v = from_bits(bits);
    if (!std::isfinite(v)) continue;
    ASSERT_EQ(ours(v), theirs(v)) << "bits 0x" << std::hex << bits;
    ASSERT_EQ(ours_marked(v), theirs_marked(v)) << "bits 0x" << std::hex << bits;
  }
  // Doubles of the corpus's kind: a few integer digits and 15-17 in all.
  std::uniform_real_distribution<double> coordinate(-180.0, 180.0);
  for (int i = 0; i < 500000; ++i) {
    const double v = coordinate(rng);
    ASSERT_EQ(ours(v), theirs(v)) << v;
  }
}

TEST(shortest, writes_stay_within_the_room_of_32_bytes) {
  // format_shortest may write past its text (whole words of digits), but
  // never past out + 32; format_shortest_pair never past out + 64.
  std::mt19937_64 rng(16);
  std::uniform_real_distribution<double> coordinate(-180.0, 180.0);
  for (int i = 0; i < 200000; ++i) {
    const double v = i % 2 == 0 ? from_bits(rng()) : coordinate(rng);
    if (!std::isfinite(v)) continue;
    char buf[48];
    std::memset(buf, 'x', sizeof buf);
    const size_t n = format_shortest(v, buf, i % 4 < 2);
    ASSERT_LE(n, 26u);
    for (size_t j = 32; j < sizeof buf; ++j) ASSERT_EQ(buf[j], 'x') << v;
  }
}

TEST(shortest, pair_is_both_texts_with_the_separator) {
  std::mt19937_64 rng(1602);
  std::uniform_real_distribution<double> coordinate(-180.0, 180.0);
  const double named[] = {0.0, -0.0, 1.0, -1.0, 100.0, 1e300, -1e-300, from_bits(1), 0.5, 1e22};
  const auto check = [](double a, double b, char sep, bool marked) {
    char buf[80];
    std::memset(buf, 'x', sizeof buf);
    const size_t n = cbor_fast::detail::format_shortest_pair(a, b, sep, buf, marked);
    for (size_t j = 64; j < sizeof buf; ++j) ASSERT_EQ(buf[j], 'x') << a << " " << b;
    const std::string first = marked ? ours_marked(a) : ours(a);
    const std::string second = marked ? ours_marked(b) : ours(b);
    ASSERT_EQ(std::string(buf, n), first + sep + second) << a << " " << b;
  };
  for (double a : named)
    for (double b : named) {
      check(a, b, ',', true);
      check(a, b, ' ', false);
    }
  for (int i = 0; i < 300000; ++i) {
    double a = i % 3 == 0 ? from_bits(rng()) : coordinate(rng);
    double b = i % 5 == 0 ? from_bits(rng()) : coordinate(rng);
    if (!std::isfinite(a)) a = 0.25;
    if (!std::isfinite(b)) b = -0.0;
    check(a, b, ',', i % 2 == 0);
  }
}

TEST(shortest, digits_are_those_of_the_scientific_form) {
  // std::to_chars(v, scientific) with no precision: the same shortest
  // digits, "d.ddde+xx" (what the diagnostic printer lays out its own way).
  std::mt19937_64 rng(7);
  for (int i = 0; i < 300000; ++i) {
    const double v = std::fabs(from_bits(rng()));
    if (!std::isfinite(v) || v == 0) continue;
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    const std::string t(buf, size_t(r.ptr - buf));
    const size_t e_at = t.find('e');
    std::string digits;
    for (size_t j = 0; j < e_at; ++j)
      if (t[j] != '.') digits += t[j];
    const int exp10 = std::stoi(t.substr(e_at + 1));
    const cbor_fast::detail::shortest_decimal d = cbor_fast::detail::shortest(v);
    ASSERT_EQ(std::to_string(d.digits), digits) << t;
    ASSERT_EQ(d.exponent + int(digits.size()) - 1, exp10) << t;
  }
}

TEST(shortest, digits_and_exponent) {
  const cbor_fast::detail::shortest_decimal a = cbor_fast::detail::shortest(1.5);
  EXPECT_EQ(a.digits, 15u);
  EXPECT_EQ(a.exponent, -1);
  const cbor_fast::detail::shortest_decimal b = cbor_fast::detail::shortest(1e300);
  EXPECT_EQ(b.digits, 1u);
  EXPECT_EQ(b.exponent, 300);
  const cbor_fast::detail::shortest_decimal c = cbor_fast::detail::shortest(from_bits(1));
  EXPECT_EQ(c.digits, 5u);
  EXPECT_EQ(c.exponent, -324);
}

}  // namespace
