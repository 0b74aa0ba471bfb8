// reduction's specs: the sum of n ints, three ways (course/int_sum_spec.h).
// naive and tree return the sum (bind.cpp stores it into the host buffer
// "sum"); atomic leaves it in a device int "sum" that it must first set to
// zero itself.
#include "course/int_sum_spec.h"

namespace {

using namespace hpclab;

class NaiveTask final : public IntSumSpec {
public:
    NaiveTask() : IntSumSpec(Place::host) {}
};

class TreeTask final : public IntSumSpec {
public:
    TreeTask() : IntSumSpec(Place::host) {}
};

class AtomicTask final : public IntSumSpec {
public:
    AtomicTask() : IntSumSpec(Place::device) {}
};

}  // namespace

HPCLAB_REGISTER_TASK("reduction", "naive", NaiveTask);
HPCLAB_REGISTER_TASK("reduction", "tree", TreeTask);
HPCLAB_REGISTER_TASK("reduction", "atomic", AtomicTask);
