// How hpclab calls this lab's functions (see grader/harness/binding.h).
#include "binding.h"
#include "matmul.h"

void hpclab_lab_bindings(hpclab::Bindings& lab)
{
    lab.add("naive", [](const hpclab::Call& c) {
        matmul_naive(c.in<float>("p"), c.in<float>("q"), c.out<float>("r"), c.int_param("n"));
        return 0;
    });
    lab.add("tiled", [](const hpclab::Call& c) {
        matmul_tiled(c.in<float>("p"), c.in<float>("q"), c.out<float>("r"), c.int_param("n"));
        return 0;
    });
}
