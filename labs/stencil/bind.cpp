// How hpclab calls this lab's function (see grader/harness/binding.h).
#include "binding.h"
#include "stencil.h"

void hpclab_lab_bindings(hpclab::Bindings& lab)
{
    lab.add("shared", [](const hpclab::Call& c) {
        stencil1d(c.in<int>("in"), c.out<int>("out"), c.int_param("n"));
        return 0;
    });
}
