// How hpclab calls this lab's function (see grader/harness/binding.h).
#include "binding.h"
#include "vecadd2.h"

void hpclab_lab_bindings(hpclab::Bindings& lab)
{
    // Both tasks call the same function; its return value is judged.
    auto call = [](const hpclab::Call& c) {
        return vecadd2(c.in<int>("a"), c.in<int>("b"), c.out<int>("c"), c.int_param("n"));
    };
    lab.add("add", call);
    lab.add("too_many", call);
}
