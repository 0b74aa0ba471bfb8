// Order statistics (util/statistics.h), the one definition every caller uses.
#include "util/statistics.h"

#include <doctest/doctest.h>

using hpclab::median;
using hpclab::quantile;

TEST_CASE("statistics: quantiles interpolate between order statistics, in any input order")
{
    CHECK(quantile({}, 0.5) == 0);
    CHECK(median({4}) == 4);
    CHECK(median({3, 1, 2}) == 2);
    CHECK(median({4, 1, 3, 2}) == doctest::Approx(2.5));  // the two middle ones' mean
    CHECK(quantile({1, 2, 3, 4, 5}, 0.25) == doctest::Approx(2));
    CHECK(quantile({1, 2, 3, 4}, 0.25) == doctest::Approx(1.75));
    CHECK(quantile({5, 1}, 0) == 1);
    CHECK(quantile({5, 1}, 1) == 5);
}
