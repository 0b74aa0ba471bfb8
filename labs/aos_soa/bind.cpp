// How hpclab calls this lab's functions (see grader/harness/binding.h).
// The array of structures is the float buffer "p" (8 floats a particle);
// the structure of arrays is one buffer per field, named as the field,
// gathered into a particles_soa_t.
#include "binding.h"
#include "aos_soa.h"

namespace {

// The eight arrays of a particles_soa_t: inputs of move_soa (read only,
// though the struct's pointers are not const), outputs of aos_to_soa.
template <class Get> particles_soa_t soa_of(Get get)
{
    return {get("x"), get("y"), get("z"), get("vx"), get("vy"), get("vz"), get("mass"), get("charge")};
}

const particle_t *aos_of(const hpclab::Call& c) { return reinterpret_cast<const particle_t *>(c.in<float>("p")); }

}  // namespace

void hpclab_lab_bindings(hpclab::Bindings& lab)
{
    lab.add("aos", [](const hpclab::Call& c) {
        move_aos(aos_of(c), c.out<float>("xnew"), c.int_param("n"));
        return 0;
    });
    lab.add("soa", [](const hpclab::Call& c) {
        const particles_soa_t p = soa_of([&](const char *name) { return const_cast<float *>(c.in<float>(name)); });
        move_soa(p, c.out<float>("xnew"), c.int_param("n"));
        return 0;
    });
    lab.add("convert", [](const hpclab::Call& c) {
        aos_to_soa(aos_of(c), soa_of([&](const char *name) { return c.out<float>(name); }), c.int_param("n"));
        return 0;
    });
}
