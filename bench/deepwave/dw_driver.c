/*
 * sweep-java's benchmark driver for Deepwave's C kernels (github.com/ar4/deepwave, src/deepwave/scalar.c,
 * scalar_born.c, acoustic.c and elastic.c). It is compiled against a Deepwave source checkout by build.sh, outside
 * this repository; nothing of Deepwave is part of sweep-java. It calls Deepwave's forward function with the arguments
 * Deepwave's Python front end (scalar.py, scalar_born.py, acoustic.py, elastic.py) passes for the benchmark problem
 * of `sweep bench`: a homogeneous model (vp 2500 m/s; acoustic: rho 2000 kg/m^3; elastic: vs 1400 m/s, rho
 * 2000 kg/m^3), 10 m cells, dt 1 ms, spatial order 8, a PML of PML cells on every side, one source in the middle of
 * the model (scalar and Born: the wavefield source; acoustic and elastic: a pressure source), no receivers, forward
 * only (no gradient storage; see grad below for the scalar gradient). Deepwave parallelises over shots: SHOTS shots
 * run on THREADS OpenMP threads.
 *   Born (scalar_born): the background and the scattered wavefield advanced together, as scalar_born.py's forward
 *   does with neither v nor scatter requiring grad (no storage, no receivers). Deepwave's `scatter` is the velocity
 *   perturbation dv itself (the scattered wavefield's source term is 2 v dv dt^2 times the background's Laplacian
 *   term, the derivative of v^2 dt^2 with respect to v): dv = 100 m/s in every model cell and 0 in the PML and the
 *   stencil guard (scalar_born.py pads scatter with zeros, v by replication). The source amplitudes are those of
 *   scalar_born.py: f = -w v^2 dt^2 for the background and fsc = -2 w v dv dt^2 for the scattered wavefield (v and
 *   dv at the source cell). The first, untimed run also checks that the scattered wavefield is finite and non-zero.
 *
 * Build (build.sh): -DDW_NDIM=2|3, and -DDW_ELASTIC, -DDW_ACOUSTIC or -DDW_SCALAR_BORN for the elastic, the
 * (variable-density) acoustic or the scalar Born variant (none: the scalar one).
 * Usage: dw_<scalar|scalar_born|acoustic|elastic>_<2|3>d N PML STEPS SHOTS THREADS [grad]
 *   Sets up the problem, runs STEPS steps once (first touch of the arrays, caches), prints "ready <cells>" (cells of
 *   one shot's step counted as sweep counts them: (N + 2 PML)^ndim), then for each line "run" on stdin zeroes the
 *   wavefields (untimed) and prints "seconds <t> cpu <c>" for STEPS steps of all shots (wall-clock time, and the CPU
 *   time of the process, all threads); "quit" or end of input ends it.
 *   grad (scalar drivers only; the Born, acoustic and elastic drivers are forward-only): the problem of sweep's
 *   gradient benchmark (Benchmark.gradientRatio): the source at x = N/2 (3-D: y = N/2), z = 2, receivers at x = 0, 10,
 *   20, ... < N, z = 2 (3-D: y = N/2), in model cells (z first, x fastest). What scalar.py does for one gradient with
 *   respect to v (the autograd Function's forward with v requiring grad, then its backward): Deepwave's forward with
 *   the wavefield term of every step stored in memory (storage_mode "device", Deepwave's default, which on the CPU is
 *   host memory; STEPS x SHOTS x (N + 2 PML + 8)^ndim floats, no compression) and the receivers recorded, then
 *   Deepwave's backward with the recorded data as the adjoint source (the residual against zero observed data, as in
 *   sweep's benchmark), producing grad_v and, as the source amplitudes (scaled by v^2) require grad too, grad_f (the
 *   chain rule from grad_f to v at the source cell, one product per step that PyTorch does, is left out). "run" then
 *   times the forward of that problem with receivers and no storage (v not requiring grad), and "grad" times forward
 *   and backward together ("seconds <t> cpu <c>") and checks that grad_v is finite and non-zero; the first, untimed
 *   gradient before "ready" touches every array. Arrays are allocated once and zeroed between calls outside the timing,
 *   and v^2 dt^2 (which the Python backward computes) once: the timed part is Deepwave's two C calls.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef DW_NDIM
#error define DW_NDIM (2 or 3)
#endif

typedef float real;

#if defined(DW_ELASTIC) + defined(DW_ACOUSTIC) + defined(DW_SCALAR_BORN) > 1
#error define at most one of DW_ELASTIC, DW_ACOUSTIC and DW_SCALAR_BORN
#endif
#if defined(DW_ELASTIC) || defined(DW_ACOUSTIC)
#define DW_STAGGERED /* Deepwave's staggered-grid propagators: fd_pad [h, h - 1], profiles a, b, ah, bh */
#elif !defined(DW_SCALAR_BORN)
#define DW_SCALAR_GRAD /* the scalar drivers, the only ones with a grad mode */
#endif

static const double DX = 10.0;
static const double DT = 1e-3;
static const double VP = 2500.0;
static const double VS = 1400.0;
static const double RHO = 2000.0;
static const double DV = 100.0; /* Born: the velocity perturbation (Deepwave's scatter) in every model cell */
static const double PML_FREQ = 25.0; /* Deepwave's default pml_freq */
static const int ACC = 8;

#ifdef DW_ELASTIC
#if DW_NDIM == 2
int elastic_iso_2d_8_float_forward_cpu(
    real const *lamb, real const *mu, real const *mu_yx, real const *buoyancy_y, real const *buoyancy_x,
    real const *f_y, real const *f_x, real const *f_p,
    real *vy, real *sigmayy, real *sigmaxy, real *m_vyy, real *m_vyx, real *m_vxy, real *m_sigmayyy,
    real *m_sigmaxyy, real *m_sigmaxyx, real *vx, real *sigmaxx, real *m_vxx, real *m_sigmaxxx,
    real *s1a, real *s1b, void *s1c, void *s1d, char const *const *s1e,
    real *s2a, real *s2b, void *s2c, void *s2d, char const *const *s2e,
    real *s3a, real *s3b, void *s3c, void *s3d, char const *const *s3e,
    real *s4a, real *s4b, void *s4c, void *s4d, char const *const *s4e,
    real *s5a, real *s5b, void *s5c, void *s5d, char const *const *s5e,
    real *r_y, real *r_x, real *r_p,
    real const *ay, real const *by, real const *ayh, real const *byh,
    real const *ax, real const *bx, real const *axh, real const *bxh,
    int64_t const *sources_y_i, int64_t const *sources_x_i, int64_t const *sources_p_i,
    int64_t const *receivers_y_i, int64_t const *receivers_x_i, int64_t const *receivers_p_i,
    real rdy, real rdx, real dt, int64_t nt, int64_t n_shots, int64_t ny, int64_t nx,
    int64_t n_sources_y, int64_t n_sources_x, int64_t n_sources_p,
    int64_t n_receivers_y, int64_t n_receivers_x, int64_t n_receivers_p,
    int64_t step_ratio, int64_t storage_mode, size_t shot_bytes_uncomp, size_t shot_bytes_comp,
    bool lamb_requires_grad, bool mu_requires_grad, bool buoyancy_requires_grad,
    bool lamb_batched, bool mu_batched, bool buoyancy_batched, bool storage_compression, int64_t start_t,
    int64_t pml_y0, int64_t pml_x0, int64_t pml_y1, int64_t pml_x1, int64_t n_threads, void *unused);
#define NFIELDS 13
#define NSTORE 5
#else
int elastic_iso_3d_8_float_forward_cpu(
    real const *lamb, real const *mu, real const *mu_zy, real const *mu_zx, real const *mu_yx,
    real const *buoyancy_z, real const *buoyancy_y, real const *buoyancy_x,
    real const *f_z, real const *f_y, real const *f_x, real const *f_p,
    real *vz, real *sigmazz, real *sigmayz, real *sigmaxz, real *m_vzz, real *m_vzy, real *m_vzx, real *m_vyz,
    real *m_vxz, real *m_sigmazzz, real *m_sigmayzy, real *m_sigmaxzx, real *m_sigmayzz, real *m_sigmaxzz,
    real *vy, real *sigmayy, real *sigmaxy, real *m_vyy, real *m_vyx, real *m_vxy, real *m_sigmayyy,
    real *m_sigmaxyy, real *m_sigmaxyx, real *vx, real *sigmaxx, real *m_vxx, real *m_sigmaxxx,
    real *s1a, real *s1b, void *s1c, void *s1d, char const *const *s1e,
    real *s2a, real *s2b, void *s2c, void *s2d, char const *const *s2e,
    real *s3a, real *s3b, void *s3c, void *s3d, char const *const *s3e,
    real *s4a, real *s4b, void *s4c, void *s4d, char const *const *s4e,
    real *s5a, real *s5b, void *s5c, void *s5d, char const *const *s5e,
    real *s6a, real *s6b, void *s6c, void *s6d, char const *const *s6e,
    real *s7a, real *s7b, void *s7c, void *s7d, char const *const *s7e,
    real *s8a, real *s8b, void *s8c, void *s8d, char const *const *s8e,
    real *s9a, real *s9b, void *s9c, void *s9d, char const *const *s9e,
    real *r_z, real *r_y, real *r_x, real *r_p,
    real const *az, real const *bz, real const *azh, real const *bzh,
    real const *ay, real const *by, real const *ayh, real const *byh,
    real const *ax, real const *bx, real const *axh, real const *bxh,
    int64_t const *sources_z_i, int64_t const *sources_y_i, int64_t const *sources_x_i, int64_t const *sources_p_i,
    int64_t const *receivers_z_i, int64_t const *receivers_y_i, int64_t const *receivers_x_i,
    int64_t const *receivers_p_i,
    real rdz, real rdy, real rdx, real dt, int64_t nt, int64_t n_shots, int64_t nz, int64_t ny, int64_t nx,
    int64_t n_sources_z, int64_t n_sources_y, int64_t n_sources_x, int64_t n_sources_p,
    int64_t n_receivers_z, int64_t n_receivers_y, int64_t n_receivers_x, int64_t n_receivers_p,
    int64_t step_ratio, int64_t storage_mode, size_t shot_bytes_uncomp, size_t shot_bytes_comp,
    bool lamb_requires_grad, bool mu_requires_grad, bool buoyancy_requires_grad,
    bool lamb_batched, bool mu_batched, bool buoyancy_batched, bool storage_compression, int64_t start_t,
    int64_t pml_z0, int64_t pml_y0, int64_t pml_x0, int64_t pml_z1, int64_t pml_y1, int64_t pml_x1,
    int64_t n_threads, void *unused);
#define NFIELDS 27
#define NSTORE 9
#endif
#elif defined(DW_ACOUSTIC)
#if DW_NDIM == 2
int acoustic_iso_2d_8_float_forward_cpu(
    real const *k, real const *buoyancy_y, real const *buoyancy_x, real const *f_p, real const *f_vy,
    real const *f_vx, real *p, real *vy, real *vx, real *phi_y, real *phi_x, real *psi_y, real *psi_x,
    real *s1a, real *s1b, void *s1c, void *s1d, char const *const *s1e,
    real *s2a, real *s2b, void *s2c, void *s2d, char const *const *s2e,
    real *s3a, real *s3b, void *s3c, void *s3d, char const *const *s3e,
    real *r_p, real *r_vy, real *r_vx,
    real const *ay, real const *by, real const *ayh, real const *byh,
    real const *ax, real const *bx, real const *axh, real const *bxh,
    int64_t const *sources_i_p, int64_t const *sources_i_vy, int64_t const *sources_i_vx,
    int64_t const *receivers_i_p, int64_t const *receivers_i_vy, int64_t const *receivers_i_vx,
    real rdy, real rdx, real dt, int64_t nt, int64_t n_shots, int64_t ny, int64_t nx,
    int64_t n_sources_p, int64_t n_sources_vy, int64_t n_sources_vx,
    int64_t n_receivers_p, int64_t n_receivers_vy, int64_t n_receivers_vx,
    int64_t step_ratio, int64_t storage_mode, size_t shot_bytes_uncomp, size_t shot_bytes_comp,
    bool k_requires_grad, bool b_requires_grad, bool k_batched, bool b_batched, bool storage_compression,
    int64_t start_t, int64_t pml_y0, int64_t pml_x0, int64_t pml_y1, int64_t pml_x1, int64_t n_threads,
    void *unused);
#define NFIELDS 7
#else
int acoustic_iso_3d_8_float_forward_cpu(
    real const *k, real const *buoyancy_z, real const *buoyancy_y, real const *buoyancy_x, real const *f_p,
    real const *f_vz, real const *f_vy, real const *f_vx, real *p, real *vz, real *vy, real *vx, real *phi_z,
    real *phi_y, real *phi_x, real *psi_z, real *psi_y, real *psi_x,
    real *s1a, real *s1b, void *s1c, void *s1d, char const *const *s1e,
    real *s2a, real *s2b, void *s2c, void *s2d, char const *const *s2e,
    real *s3a, real *s3b, void *s3c, void *s3d, char const *const *s3e,
    real *s4a, real *s4b, void *s4c, void *s4d, char const *const *s4e,
    real *r_p, real *r_vz, real *r_vy, real *r_vx,
    real const *az, real const *bz, real const *azh, real const *bzh,
    real const *ay, real const *by, real const *ayh, real const *byh,
    real const *ax, real const *bx, real const *axh, real const *bxh,
    int64_t const *sources_i_p, int64_t const *sources_i_vz, int64_t const *sources_i_vy,
    int64_t const *sources_i_vx, int64_t const *receivers_i_p, int64_t const *receivers_i_vz,
    int64_t const *receivers_i_vy, int64_t const *receivers_i_vx,
    real rdz, real rdy, real rdx, real dt, int64_t nt, int64_t n_shots, int64_t nz, int64_t ny, int64_t nx,
    int64_t n_sources_p, int64_t n_sources_vz, int64_t n_sources_vy, int64_t n_sources_vx,
    int64_t n_receivers_p, int64_t n_receivers_vz, int64_t n_receivers_vy, int64_t n_receivers_vx,
    int64_t step_ratio, int64_t storage_mode, size_t shot_bytes_uncomp, size_t shot_bytes_comp,
    bool k_requires_grad, bool b_requires_grad, bool k_batched, bool b_batched, bool storage_compression,
    int64_t start_t, int64_t pml_z0, int64_t pml_y0, int64_t pml_x0, int64_t pml_z1, int64_t pml_y1,
    int64_t pml_x1, int64_t n_threads, void *unused);
#define NFIELDS 10
#endif
#elif defined(DW_SCALAR_BORN)
/* scalar_born.c's forward: the background fields (wfc, wfp, psi, psin, zeta), then the same of the scattered
   wavefield (sc), the storage of each (w_store, wsc_store), the receiver records r and rsc */
#if DW_NDIM == 2
int scalar_born_iso_2d_8_float_forward_cpu(
    real const *v, real const *scatter, real const *f, real const *fsc, real *wfc, real *wfp, real *psiy,
    real *psix, real *psiyn, real *psixn, real *zetay, real *zetax, real *wfcsc, real *wfpsc, real *psiysc,
    real *psixsc, real *psiynsc, real *psixnsc, real *zetaysc, real *zetaxsc,
    real *w_store_1, real *w_store_1b, void *w_store_2, void *w_store_3, char const *const *w_filenames,
    real *wsc_store_1, real *wsc_store_1b, void *wsc_store_2, void *wsc_store_3, char const *const *wsc_filenames,
    real *r, real *rsc, real const *ay, real const *by, real const *dbydy, real const *ax, real const *bx,
    real const *dbxdx, int64_t const *sources_i, int64_t const *receivers_i, int64_t const *receiverssc_i,
    real rdy, real rdx, real rdy2, real rdx2, real dt2, int64_t nt, int64_t n_shots, int64_t ny, int64_t nx,
    int64_t n_sources_per_shot, int64_t n_receivers_per_shot, int64_t n_receiverssc_per_shot, int64_t step_ratio,
    int64_t storage_mode, size_t shot_bytes_uncomp, size_t shot_bytes_comp, bool v_requires_grad,
    bool scatter_requires_grad, bool v_batched, bool scatter_batched, bool storage_compression, int64_t start_t,
    int64_t pml_y0, int64_t pml_x0, int64_t pml_y1, int64_t pml_x1, int64_t n_threads, void *unused);
#define NFIELDS 16
#define SC_FIELD 8 /* field[SC_FIELD], field[SC_FIELD + 1]: the scattered wavefield's two time levels */
#else
int scalar_born_iso_3d_8_float_forward_cpu(
    real const *v, real const *scatter, real const *f, real const *fsc, real *wfc, real *wfp, real *psiz,
    real *psiy, real *psix, real *psizn, real *psiyn, real *psixn, real *zetaz, real *zetay, real *zetax,
    real *wfcsc, real *wfpsc, real *psizsc, real *psiysc, real *psixsc, real *psiznsc, real *psiynsc,
    real *psixnsc, real *zetazsc, real *zetaysc, real *zetaxsc,
    real *w_store_1, real *w_store_1b, void *w_store_2, void *w_store_3, char const *const *w_filenames,
    real *wsc_store_1, real *wsc_store_1b, void *wsc_store_2, void *wsc_store_3, char const *const *wsc_filenames,
    real *r, real *rsc, real const *az, real const *bz, real const *dbzdz, real const *ay, real const *by,
    real const *dbydy, real const *ax, real const *bx, real const *dbxdx, int64_t const *sources_i,
    int64_t const *receivers_i, int64_t const *receiverssc_i, real rdz, real rdy, real rdx, real rdz2, real rdy2,
    real rdx2, real dt2, int64_t nt, int64_t n_shots, int64_t nz, int64_t ny, int64_t nx,
    int64_t n_sources_per_shot, int64_t n_receivers_per_shot, int64_t n_receiverssc_per_shot, int64_t step_ratio,
    int64_t storage_mode, size_t shot_bytes_uncomp, size_t shot_bytes_comp, bool v_requires_grad,
    bool scatter_requires_grad, bool v_batched, bool scatter_batched, bool storage_compression, int64_t start_t,
    int64_t pml_z0, int64_t pml_y0, int64_t pml_x0, int64_t pml_z1, int64_t pml_y1, int64_t pml_x1,
    int64_t n_threads, void *unused);
#define NFIELDS 22
#define SC_FIELD 11
#endif
#else /* scalar */
#if DW_NDIM == 2
int scalar_iso_2d_8_float_forward_cpu(
    real const *v, real const *f, real *wfc, real *wfp, real *psiy, real *psix, real *psiyn, real *psixn,
    real *zetay, real *zetax, real *w_store_1, real *w_store_1b, void *w_store_2, void *w_store_3,
    char const *const *w_filenames, real *r, real const *ay, real const *by, real const *dbydy, real const *ax,
    real const *bx, real const *dbxdx, int64_t const *sources_i, int64_t const *receivers_i,
    real rdy, real rdx, real rdy2, real rdx2, real dt2, int64_t nt, int64_t n_shots, int64_t ny, int64_t nx,
    int64_t n_sources_per_shot, int64_t n_receivers_per_shot, int64_t step_ratio, int64_t storage_mode,
    size_t shot_bytes_uncomp, size_t shot_bytes_comp, bool v_requires_grad, bool v_batched,
    bool storage_compression, int64_t start_t, int64_t pml_y0, int64_t pml_x0, int64_t pml_y1, int64_t pml_x1,
    int64_t n_threads, void *unused);
int scalar_iso_2d_8_float_backward_cpu(
    real const *v2dt2, real const *grad_r, real *wfc, real *wfp, real *psiy, real *psix, real *psiyn, real *psixn,
    real *zetay, real *zetax, real *zetayn, real *zetaxn, real *w_store_1, real *w_store_1b, void *w_store_2,
    void *w_store_3, char const *const *w_filenames, real *grad_f, real *grad_v, real *grad_v_thread,
    real const *ay, real const *by, real const *dbydy, real const *ax, real const *bx, real const *dbxdx,
    int64_t const *sources_i, int64_t const *receivers_i, real rdy, real rdx, real rdy2, real rdx2, int64_t nt,
    int64_t n_shots, int64_t ny, int64_t nx, int64_t n_sources_per_shot, int64_t n_receivers_per_shot,
    int64_t step_ratio, int64_t storage_mode, size_t shot_bytes_uncomp, size_t shot_bytes_comp,
    bool v_requires_grad, bool v_batched, bool storage_compression, int64_t start_t, int64_t pml_y0, int64_t pml_x0,
    int64_t pml_y1, int64_t pml_x1, int64_t n_threads, void *unused);
#define NFIELDS 8
#define NBFIELDS 10
#else
int scalar_iso_3d_8_float_forward_cpu(
    real const *v, real const *f, real *wfc, real *wfp, real *psiz, real *psiy, real *psix, real *psizn,
    real *psiyn, real *psixn, real *zetaz, real *zetay, real *zetax, real *w_store_1, real *w_store_1b,
    void *w_store_2, void *w_store_3, char const *const *w_filenames, real *r, real const *az, real const *bz,
    real const *dbzdz, real const *ay, real const *by, real const *dbydy, real const *ax, real const *bx,
    real const *dbxdx, int64_t const *sources_i, int64_t const *receivers_i, real rdz, real rdy, real rdx,
    real rdz2, real rdy2, real rdx2, real dt2, int64_t nt, int64_t n_shots, int64_t nz, int64_t ny, int64_t nx,
    int64_t n_sources_per_shot, int64_t n_receivers_per_shot, int64_t step_ratio, int64_t storage_mode,
    size_t shot_bytes_uncomp, size_t shot_bytes_comp, bool v_requires_grad, bool v_batched,
    bool storage_compression, int64_t start_t, int64_t pml_z0, int64_t pml_y0, int64_t pml_x0, int64_t pml_z1,
    int64_t pml_y1, int64_t pml_x1, int64_t n_threads, void *unused);
int scalar_iso_3d_8_float_backward_cpu(
    real const *v2dt2, real const *grad_r, real *wfc, real *wfp, real *psiz, real *psiy, real *psix, real *psizn,
    real *psiyn, real *psixn, real *zetaz, real *zetay, real *zetax, real *zetazn, real *zetayn, real *zetaxn,
    real *w_store_1, real *w_store_1b, void *w_store_2, void *w_store_3, char const *const *w_filenames,
    real *grad_f, real *grad_v, real *grad_v_thread, real const *az, real const *bz, real const *dbzdz,
    real const *ay, real const *by, real const *dbydy, real const *ax, real const *bx, real const *dbxdx,
    int64_t const *sources_i, int64_t const *receivers_i, real rdz, real rdy, real rdx, real rdz2, real rdy2,
    real rdx2, int64_t nt, int64_t n_shots, int64_t nz, int64_t ny, int64_t nx, int64_t n_sources_per_shot,
    int64_t n_receivers_per_shot, int64_t step_ratio, int64_t storage_mode, size_t shot_bytes_uncomp,
    size_t shot_bytes_comp, bool v_requires_grad, bool v_batched, bool storage_compression, int64_t start_t,
    int64_t pml_z0, int64_t pml_y0, int64_t pml_x0, int64_t pml_z1, int64_t pml_y1, int64_t pml_x1,
    int64_t n_threads, void *unused);
#define NFIELDS 11
#define NBFIELDS 14
#endif
#endif

static real *zeros(size_t n) {
    real *p = calloc(n ? n : 1, sizeof(real));
    if (!p) {
        fprintf(stderr, "dw_driver: out of memory allocating %zu floats\n", n);
        exit(2);
    }
    return p;
}

/*
 * C-PML profile of one axis as Deepwave's common.setup_pml computes it (reflection 0.001, power 2): points
 * start, start + 1, ... of an axis of n points whose PML regions start at p0 (low side) and p1 (high side), width w
 * cells on both sides, max_pml the widest PML in metres.
 */
static void pml_profile(int n, double start, double p0, double p1, int w, double max_pml, real *a, real *b) {
    double sigma0 = -(1 + 2) * VP * log(0.001) / (2 * max_pml);
    double alpha0 = M_PI * PML_FREQ;
    for (int i = 0; i < n; i++) {
        double x = start + i;
        double f0 = (p0 - x) / w;
        double f1 = (x - p1) / w;
        double f = f0 > f1 ? f0 : f1;
        f = f < 0 ? 0 : f > 1 ? 1 : f;
        double sigma = sigma0 * f * f;
        double alpha = alpha0 * (1 - f);
        double aa = exp(-(sigma + alpha) * DT);
        a[i] = (real)(f == 0 ? 0 : aa);
        b[i] = (real)(sigma / (sigma + alpha) * (aa - 1));
    }
}

/* The project's Ricker wavelet (peak frequency 10 Hz, peak at 1.5/f), sample t = w(t dt). */
static double ricker(int t) {
    double f = 10.0;
    double tt = t * DT - 1.5 / f;
    double p = M_PI * f * tt;
    return (1 - 2 * p * p) * exp(-p * p);
}

static double clock_s(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
    bool grad_mode = argc == 7 && strcmp(argv[6], "grad") == 0;
    if (argc != 6 && !grad_mode) {
        fprintf(stderr, "usage: %s N PML STEPS SHOTS THREADS [grad]\n", argv[0]);
        return 2;
    }
#ifndef DW_SCALAR_GRAD
    if (grad_mode) {
        fprintf(stderr, "dw_driver: the Born, acoustic and elastic drivers time the forward step only: no grad mode\n");
        return 2;
    }
#endif
    int n = atoi(argv[1]);
    int pml = atoi(argv[2]);
    int steps = atoi(argv[3]);
    int shots = atoi(argv[4]);
    int threads = atoi(argv[5]);
    if (n < 1 || pml < 1 || steps < 1 || shots < 1 || threads < 1) {
        fprintf(stderr, "dw_driver: N, PML, STEPS, SHOTS and THREADS must be positive\n");
        return 2;
    }
    if (grad_mode && n < 10) {
        fprintf(stderr, "dw_driver: grad needs N >= 10 (one receiver every 10 cells), got %d\n", n);
        return 2;
    }
    int h = ACC / 2;
#ifdef DW_STAGGERED
    int lo = h, hi = h - 1; /* acoustic.py, elastic.py: fd_pad = [accuracy // 2, accuracy // 2 - 1] per dimension */
#else
    int lo = h, hi = h; /* scalar.py: fd_pad = accuracy // 2 on every side */
#endif
    int ns = n + 2 * pml + lo + hi; /* points per axis: the model padded by the PML and the stencil guard */
    size_t np = 1;
    for (int d = 0; d < DW_NDIM; d++) {
        np *= (size_t)ns;
    }
    int64_t c = lo + pml + n / 2; /* the middle of the model, per axis */
    int64_t centre = DW_NDIM == 2 ? c * ns + c : (c * ns + c) * ns + c;
    double max_pml = pml * DX;
    real *prof[DW_NDIM][4]; /* per axis: scalar a, b, dbdx; acoustic and elastic a, b, ah, bh */
    for (int d = 0; d < DW_NDIM; d++) {
        for (int k = 0; k < 4; k++) {
            prof[d][k] = zeros(ns);
        }
        double p0 = lo + pml;
        double p1 = ns - 1 - hi - pml;
        pml_profile(ns, 0.0, p0, p1, pml, max_pml, prof[d][0], prof[d][1]);
#ifdef DW_STAGGERED
        pml_profile(ns, 0.5, p0, p1, pml, max_pml, prof[d][2], prof[d][3]);
#else
        /* dbdx: regular_grid.diffx1 of b at order 8, zero on the 4 end points */
        static const double w1[4] = {4.0 / 5, -1.0 / 5, 4.0 / 105, -1.0 / 280};
        for (int i = 4; i < ns - 4; i++) {
            double s = 0;
            for (int k = 1; k <= 4; k++) {
                s += w1[k - 1] * (prof[d][1][i + k] - prof[d][1][i - k]);
            }
            prof[d][2][i] = (real)(s / DX);
        }
#endif
    }
    int64_t pml_b[DW_NDIM], pml_e[DW_NDIM];
    for (int d = 0; d < DW_NDIM; d++) {
#ifdef DW_STAGGERED
        pml_b[d] = pml + h;
        int64_t e = ns - pml - (h - 1);
#else
        pml_b[d] = pml + 2 * h < ns - h ? pml + 2 * h : ns - h;
        int64_t e = ns - pml - 2 * h;
#endif
        pml_e[d] = e > pml_b[d] ? e : pml_b[d];
    }
    real *field[NFIELDS];
    for (int k = 0; k < NFIELDS; k++) {
        field[k] = zeros(np * shots);
    }
    int64_t *src = malloc(sizeof(int64_t) * shots);
    int64_t m0 = lo + pml; /* model cell 0 on every axis */
    /* grad: sweep's gradient benchmark problem, source at x = N/2 (3-D: y = N/2), z = 2 */
    int64_t top = DW_NDIM == 2 ? (m0 + 2) * ns + m0 + n / 2 : ((m0 + 2) * ns + m0 + n / 2) * ns + m0 + n / 2;
    for (int s = 0; s < shots; s++) {
        src[s] = grad_mode ? top : centre;
    }
    int64_t no_loc = 0;
    real dummy = 0;
    /* receivers (grad only): x = 0, 10, 20, ... < N at z = 2 (3-D: y = N/2), the same line for every shot */
    int64_t nrec = grad_mode ? n / 10 : 0;
    int64_t *rec_i = malloc(sizeof(int64_t) * (nrec * shots + 1));
    for (int s = 0; s < shots; s++) {
        for (int64_t k = 0; k < nrec; k++) {
            int64_t row = DW_NDIM == 2 ? (m0 + 2) * ns : ((m0 + 2) * ns + m0 + n / 2) * ns;
            rec_i[s * nrec + k] = row + m0 + 10 * k;
        }
    }
    real *rec_amp = grad_mode ? zeros((size_t)steps * shots * nrec) : &dummy; /* (nt, shots, nrec) */
#ifdef DW_SCALAR_GRAD
    /* grad: the stored wavefield term (storage_mode 0 "device", uncompressed: one float per padded cell, shot and
       step), the backward wavefields (wfc, wfp, psi, psin, zeta, zetan) and grad_v (per thread on more threads) */
    size_t shot_bytes = np * sizeof(real);
    real *store = grad_mode ? zeros((size_t)steps * shots * np) : NULL;
    real *gfield[NBFIELDS];
    for (int k = 0; k < NBFIELDS; k++) {
        gfield[k] = grad_mode ? zeros(np * shots) : NULL;
    }
    real *grad_v = grad_mode ? zeros(np) : NULL;
    /* the source amplitudes (times -v^2 dt^2, computed from v) require grad too: backward records grad_f */
    real *grad_f = grad_mode ? zeros((size_t)steps * shots) : NULL;
    real *grad_v_thread = grad_mode && threads > 1 ? zeros(np * threads) : grad_v;
    int64_t pml_bb[DW_NDIM], pml_eb[DW_NDIM]; /* scalar.py's backward: the PML region widened by 3 fd_pad */
    for (int d = 0; d < DW_NDIM; d++) {
        pml_bb[d] = pml + 3 * h < ns - h ? pml + 3 * h : ns - h;
        int64_t e = ns - pml - 3 * h;
        pml_eb[d] = e > pml_bb[d] ? e : pml_bb[d];
    }
#endif
    real *f = zeros((size_t)steps * shots);
#ifdef DW_ELASTIC
    /* parameters from lamb, mu, buoyancy as elastic.prepare_parameters makes them (homogeneous model: the averages
       equal the cell values; the padded last row/column/plane of each averaged parameter is 0) */
    double mu0 = RHO * VS * VS;
    double lamb0 = RHO * VP * VP - 2 * mu0;
    int nparam = DW_NDIM == 2 ? 5 : 8;
    real *param[8];
    for (int k = 0; k < nparam; k++) {
        param[k] = zeros(np);
    }
    /* order of the C signature: lamb, mu, (3-D: mu_zy, mu_zx,) mu_yx, (3-D: buoyancy_z,) buoyancy_y, buoyancy_x */
    for (size_t i = 0; i < np; i++) {
        int x = (int)(i % ns);
        int y = (int)((i / ns) % ns);
        int z = DW_NDIM == 3 ? (int)(i / ((size_t)ns * ns)) : 0;
        bool lx = x == ns - 1, ly = y == ns - 1, lz = DW_NDIM == 3 && z == ns - 1;
        param[0][i] = (real)lamb0;
        param[1][i] = (real)mu0;
#if DW_NDIM == 2
        param[2][i] = (real)(ly || lx ? 0 : mu0);
        param[3][i] = (real)(ly ? 0 : 1 / RHO);
        param[4][i] = (real)(lx ? 0 : 1 / RHO);
#else
        param[2][i] = (real)(lz || ly ? 0 : mu0);
        param[3][i] = (real)(lz || lx ? 0 : mu0);
        param[4][i] = (real)(ly || lx ? 0 : mu0);
        param[5][i] = (real)(lz ? 0 : 1 / RHO);
        param[6][i] = (real)(ly ? 0 : 1 / RHO);
        param[7][i] = (real)(lx ? 0 : 1 / RHO);
#endif
    }
    for (int t = 0; t < steps; t++) {
        for (int s = 0; s < shots; s++) {
            f[t * shots + s] = (real)(-ricker(t) * DT); /* elastic.py: pressure amplitudes times -dt */
        }
    }
#elif defined(DW_ACOUSTIC)
    /* K and the buoyancies as acoustic.prepare_models makes them (homogeneous model: 2/(rho + rho) = 1/rho; the last
       row/column/plane of each buoyancy, which has no cell after it, is 0) */
    int nparam = DW_NDIM + 1;
    real *param[4];
    for (int k = 0; k < nparam; k++) {
        param[k] = zeros(np);
    }
    /* order of the C signature: k, (3-D: buoyancy_z,) buoyancy_y, buoyancy_x */
    for (size_t i = 0; i < np; i++) {
        int x = (int)(i % ns);
        int y = (int)((i / ns) % ns);
        param[0][i] = (real)(RHO * VP * VP);
#if DW_NDIM == 2
        param[1][i] = (real)(y == ns - 1 ? 0 : 1 / RHO);
        param[2][i] = (real)(x == ns - 1 ? 0 : 1 / RHO);
#else
        int z = (int)(i / ((size_t)ns * ns));
        param[1][i] = (real)(z == ns - 1 ? 0 : 1 / RHO);
        param[2][i] = (real)(y == ns - 1 ? 0 : 1 / RHO);
        param[3][i] = (real)(x == ns - 1 ? 0 : 1 / RHO);
#endif
    }
    for (int t = 0; t < steps; t++) {
        for (int s = 0; s < shots; s++) {
            f[t * shots + s] = (real)(ricker(t) * DT); /* a volume-injection rate times dt: any non-zero source */
        }
    }
#elif defined(DW_SCALAR_BORN)
    /* v replicated into the PML and the guard, scatter (the velocity perturbation dv) padded with zeros: dv in the
       model cells only, as scalar_born.py pads them */
    real *vel = zeros(np);
    real *scat = zeros(np);
    for (size_t i = 0; i < np; i++) {
        int64_t x = (int64_t)(i % ns);
        int64_t y = (int64_t)((i / ns) % ns);
        int64_t z = DW_NDIM == 3 ? (int64_t)(i / ((size_t)ns * ns)) : m0;
        bool inside = x >= m0 && x < m0 + n && y >= m0 && y < m0 + n && z >= m0 && z < m0 + n;
        vel[i] = (real)VP;
        scat[i] = (real)(inside ? DV : 0);
    }
    real *fsc = zeros((size_t)steps * shots);
    for (int t = 0; t < steps; t++) {
        for (int s = 0; s < shots; s++) {
            /* scalar_born.py: the background amplitudes times -v^2 dt^2, the scattered ones times -2 v dv dt^2 */
            f[t * shots + s] = (real)(-ricker(t) * VP * VP * DT * DT);
            fsc[t * shots + s] = (real)(-2 * ricker(t) * VP * DV * DT * DT);
        }
    }
#else
    real *vel = zeros(np);
    real *v2dt2 = zeros(np); /* the backward's v^2 dt^2, as scalar.py computes it */
    for (size_t i = 0; i < np; i++) {
        vel[i] = (real)VP;
        v2dt2[i] = (real)(VP * VP * DT * DT);
    }
    for (int t = 0; t < steps; t++) {
        for (int s = 0; s < shots; s++) {
            f[t * shots + s] = (real)(-ricker(t) * VP * VP * DT * DT); /* scalar.py: amplitudes times -v^2 dt^2 */
        }
    }
#endif
    real rd = (real)(1 / DX);
    char line[64];
    for (int iter = 0;; iter++) {
        bool grad = grad_mode && iter == 0; /* grad: the first (untimed) call touches every array */
        if (iter > 0) {
            if (!fgets(line, sizeof line, stdin) || strncmp(line, "quit", 4) == 0) {
                break;
            }
            grad = grad_mode && strncmp(line, "grad", 4) == 0;
            if (strncmp(line, "run", 3) != 0 && !grad) {
                fprintf(stderr, "dw_driver: unknown command %s", line);
                return 2;
            }
            for (int k = 0; k < NFIELDS; k++) {
                memset(field[k], 0, sizeof(real) * np * shots);
            }
            if (grad_mode) {
                memset(rec_amp, 0, sizeof(real) * steps * shots * nrec);
            }
#ifdef DW_SCALAR_GRAD
            if (grad) {
                for (int k = 0; k < NBFIELDS; k++) {
                    memset(gfield[k], 0, sizeof(real) * np * shots);
                }
                memset(grad_v, 0, sizeof(real) * np);
                memset(grad_f, 0, sizeof(real) * steps * shots);
                if (grad_v_thread != grad_v) {
                    memset(grad_v_thread, 0, sizeof(real) * np * threads);
                }
            }
#endif
        }
        double t0 = clock_s(CLOCK_MONOTONIC);
        double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        int rc;
#ifdef DW_ELASTIC
#define ST NULL, NULL, NULL, NULL, NULL
#if DW_NDIM == 2
        rc = elastic_iso_2d_8_float_forward_cpu(
            param[0], param[1], param[2], param[3], param[4], &dummy, &dummy, f,
            field[0], field[1], field[2], field[3], field[4], field[5], field[6], field[7], field[8],
            field[9], field[10], field[11], field[12],
            ST, ST, ST, ST, ST,
            &dummy, &dummy, &dummy,
            prof[0][0], prof[0][1], prof[0][2], prof[0][3], prof[1][0], prof[1][1], prof[1][2], prof[1][3],
            &no_loc, &no_loc, src, &no_loc, &no_loc, &no_loc,
            rd, rd, (real)DT, steps, shots, ns, ns, 0, 0, 1, 0, 0, 0,
            1, 0, 0, 0, false, false, false, false, false, false, false, 0,
            pml_b[0], pml_b[1], pml_e[0], pml_e[1], threads, NULL);
#else
        rc = elastic_iso_3d_8_float_forward_cpu(
            param[0], param[1], param[2], param[3], param[4], param[5], param[6], param[7],
            &dummy, &dummy, &dummy, f,
            field[0], field[1], field[2], field[3], field[4], field[5], field[6], field[7], field[8], field[9],
            field[10], field[11], field[12], field[13],
            field[14], field[15], field[16], field[17], field[18], field[19], field[20], field[21], field[22],
            field[23], field[24], field[25], field[26],
            ST, ST, ST, ST, ST, ST, ST, ST, ST,
            &dummy, &dummy, &dummy, &dummy,
            prof[0][0], prof[0][1], prof[0][2], prof[0][3], prof[1][0], prof[1][1], prof[1][2], prof[1][3],
            prof[2][0], prof[2][1], prof[2][2], prof[2][3],
            &no_loc, &no_loc, &no_loc, src, &no_loc, &no_loc, &no_loc, &no_loc,
            rd, rd, rd, (real)DT, steps, shots, ns, ns, ns, 0, 0, 0, 1, 0, 0, 0, 0,
            1, 0, 0, 0, false, false, false, false, false, false, false, 0,
            pml_b[0], pml_b[1], pml_b[2], pml_e[0], pml_e[1], pml_e[2], threads, NULL);
#endif
#elif defined(DW_ACOUSTIC)
#define ST NULL, NULL, NULL, NULL, NULL
#if DW_NDIM == 2
        rc = acoustic_iso_2d_8_float_forward_cpu(
            param[0], param[1], param[2], f, &dummy, &dummy,
            field[0], field[1], field[2], field[3], field[4], field[5], field[6],
            ST, ST, ST,
            &dummy, &dummy, &dummy,
            prof[0][0], prof[0][1], prof[0][2], prof[0][3], prof[1][0], prof[1][1], prof[1][2], prof[1][3],
            src, &no_loc, &no_loc, &no_loc, &no_loc, &no_loc,
            rd, rd, (real)DT, steps, shots, ns, ns, 1, 0, 0, 0, 0, 0,
            1, 0, 0, 0, false, false, false, false, false, 0,
            pml_b[0], pml_b[1], pml_e[0], pml_e[1], threads, NULL);
#else
        rc = acoustic_iso_3d_8_float_forward_cpu(
            param[0], param[1], param[2], param[3], f, &dummy, &dummy, &dummy,
            field[0], field[1], field[2], field[3], field[4], field[5], field[6], field[7], field[8], field[9],
            ST, ST, ST, ST,
            &dummy, &dummy, &dummy, &dummy,
            prof[0][0], prof[0][1], prof[0][2], prof[0][3], prof[1][0], prof[1][1], prof[1][2], prof[1][3],
            prof[2][0], prof[2][1], prof[2][2], prof[2][3],
            src, &no_loc, &no_loc, &no_loc, &no_loc, &no_loc, &no_loc, &no_loc,
            rd, rd, rd, (real)DT, steps, shots, ns, ns, ns, 1, 0, 0, 0, 0, 0, 0, 0,
            1, 0, 0, 0, false, false, false, false, false, 0,
            pml_b[0], pml_b[1], pml_b[2], pml_e[0], pml_e[1], pml_e[2], threads, NULL);
#endif
#elif defined(DW_SCALAR_BORN)
        real rd2 = (real)(1 / (DX * DX));
        real dt2 = (real)(DT * DT);
#define ST NULL, NULL, NULL, NULL, NULL
        /* no receivers (r, rsc, receivers_i, receiverssc_i unused), one source per shot, step_ratio 1, storage_mode
           0 (scalar_born.py's default "device"; nothing is stored as neither v nor scatter requires grad), no
           storage bytes, v_requires_grad = scatter_requires_grad = false, v and scatter not batched, start_t 0 */
#if DW_NDIM == 2
        rc = scalar_born_iso_2d_8_float_forward_cpu(
            vel, scat, f, fsc, field[0], field[1], field[2], field[3], field[4], field[5], field[6], field[7],
            field[8], field[9], field[10], field[11], field[12], field[13], field[14], field[15], ST, ST,
            &dummy, &dummy, prof[0][0], prof[0][1], prof[0][2], prof[1][0], prof[1][1], prof[1][2],
            src, &no_loc, &no_loc, rd, rd, rd2, rd2, dt2, steps, shots, ns, ns, 1, 0, 0, 1, 0, 0, 0,
            false, false, false, false, false, 0, pml_b[0], pml_b[1], pml_e[0], pml_e[1], threads, NULL);
#else
        rc = scalar_born_iso_3d_8_float_forward_cpu(
            vel, scat, f, fsc, field[0], field[1], field[2], field[3], field[4], field[5], field[6], field[7],
            field[8], field[9], field[10], field[11], field[12], field[13], field[14], field[15], field[16],
            field[17], field[18], field[19], field[20], field[21], ST, ST,
            &dummy, &dummy, prof[0][0], prof[0][1], prof[0][2], prof[1][0], prof[1][1], prof[1][2],
            prof[2][0], prof[2][1], prof[2][2], src, &no_loc, &no_loc, rd, rd, rd, rd2, rd2, rd2, dt2,
            steps, shots, ns, ns, ns, 1, 0, 0, 1, 0, 0, 0, false, false, false, false, false, 0,
            pml_b[0], pml_b[1], pml_b[2], pml_e[0], pml_e[1], pml_e[2], threads, NULL);
#endif
#else
        real rd2 = (real)(1 / (DX * DX));
        real dt2 = (real)(DT * DT);
        real *st = grad ? store : NULL; /* wavefield storage only when v requires grad */
        int64_t *ri = grad_mode ? rec_i : &no_loc;
        size_t sb = grad ? shot_bytes : 0;
#if DW_NDIM == 2
        rc = scalar_iso_2d_8_float_forward_cpu(
            vel, f, field[0], field[1], field[2], field[3], field[4], field[5], field[6], field[7],
            st, NULL, NULL, NULL, NULL, rec_amp,
            prof[0][0], prof[0][1], prof[0][2], prof[1][0], prof[1][1], prof[1][2], src, ri,
            rd, rd, rd2, rd2, dt2, steps, shots, ns, ns, 1, nrec, 1, 0, sb, 0, grad, false, false, 0,
            pml_b[0], pml_b[1], pml_e[0], pml_e[1], threads, NULL);
        if (grad && rc == 0) { /* the adjoint source: the recorded data (the residual against zero data) */
            rc = scalar_iso_2d_8_float_backward_cpu(
                v2dt2, rec_amp, gfield[0], gfield[1], gfield[2], gfield[3], gfield[4], gfield[5], gfield[6],
                gfield[7], gfield[8], gfield[9], store, NULL, NULL, NULL, NULL, grad_f, grad_v, grad_v_thread,
                prof[0][0], prof[0][1], prof[0][2], prof[1][0], prof[1][1], prof[1][2], src, rec_i,
                rd, rd, rd2, rd2, steps, shots, ns, ns, 1, nrec, 1, 0, shot_bytes, 0, true, false, false, steps,
                pml_bb[0], pml_bb[1], pml_eb[0], pml_eb[1], threads, NULL);
        }
#else
        rc = scalar_iso_3d_8_float_forward_cpu(
            vel, f, field[0], field[1], field[2], field[3], field[4], field[5], field[6], field[7], field[8],
            field[9], field[10], st, NULL, NULL, NULL, NULL, rec_amp,
            prof[0][0], prof[0][1], prof[0][2], prof[1][0], prof[1][1], prof[1][2], prof[2][0], prof[2][1],
            prof[2][2], src, ri, rd, rd, rd, rd2, rd2, rd2, dt2, steps, shots, ns, ns, ns, 1, nrec, 1, 0, sb, 0,
            grad, false, false, 0, pml_b[0], pml_b[1], pml_b[2], pml_e[0], pml_e[1], pml_e[2], threads, NULL);
        if (grad && rc == 0) { /* the adjoint source: the recorded data (the residual against zero data) */
            rc = scalar_iso_3d_8_float_backward_cpu(
                v2dt2, rec_amp, gfield[0], gfield[1], gfield[2], gfield[3], gfield[4], gfield[5], gfield[6],
                gfield[7], gfield[8], gfield[9], gfield[10], gfield[11], gfield[12], gfield[13], store, NULL, NULL,
                NULL, NULL, grad_f, grad_v, grad_v_thread, prof[0][0], prof[0][1], prof[0][2], prof[1][0],
                prof[1][1], prof[1][2], prof[2][0], prof[2][1], prof[2][2], src, rec_i, rd, rd, rd, rd2, rd2, rd2,
                steps, shots, ns, ns, ns, 1, nrec, 1, 0, shot_bytes, 0, true, false, false, steps, pml_bb[0],
                pml_bb[1], pml_bb[2], pml_eb[0], pml_eb[1], pml_eb[2], threads, NULL);
        }
#endif
#endif
        double sec = clock_s(CLOCK_MONOTONIC) - t0;
        double cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
        if (rc != 0) {
            fprintf(stderr, "dw_driver: Deepwave's %s returned %d\n", grad ? "forward or backward" : "forward", rc);
            return 1;
        }
#ifdef DW_SCALAR_GRAD
        if (grad) { /* a finite, non-zero gradient shows that the adjoint source went in and met the stored field */
            double gsum = 0;
            for (size_t i = 0; i < np; i++) {
                gsum += fabs((double)grad_v[i]);
            }
            if (!(gsum > 0) || !isfinite(gsum)) {
                fprintf(stderr, "dw_driver: gradient sum %g after %d steps: zero or not finite\n", gsum, steps);
                return 1;
            }
        }
#endif
        /* a finite, non-zero wavefield shows that the source went in and nothing blew up */
#ifdef DW_ELASTIC
        real *probe[2] = {field[DW_NDIM == 2 ? 10 : 24], field[DW_NDIM == 2 ? 10 : 24]}; /* sigmaxx */
#elif defined(DW_ACOUSTIC)
        real *probe[2] = {field[0], field[0]}; /* p */
#else
        real *probe[2] = {field[0], field[1]}; /* the two time levels, whichever holds the last step */
#endif
#ifdef DW_SCALAR_BORN
        if (iter == 0) { /* once, untimed: the scattered source and the 2 v dv dt^2 term went in, nothing blew up */
            double scsum = 0;
            for (size_t i = 0; i < np * shots; i++) {
                scsum += fabs((double)field[SC_FIELD][i]) + fabs((double)field[SC_FIELD + 1][i]);
            }
            if (!(scsum > 0) || !isfinite(scsum)) {
                fprintf(stderr, "dw_driver: scattered wavefield sum %g after %d steps: zero or not finite\n", scsum,
                        steps);
                return 1;
            }
        }
#endif
        double sum = 0;
        for (size_t i = 0; i < np; i++) {
            sum += fabs((double)probe[0][i]) + fabs((double)probe[1][i]);
        }
        if (!(sum > 0) || !isfinite(sum)) {
            fprintf(stderr, "dw_driver: wavefield sum %g after %d steps: no source or unstable\n", sum, steps);
            return 1;
        }
        if (iter == 0) {
            double cells = 1;
            for (int d = 0; d < DW_NDIM; d++) {
                cells *= n + 2.0 * pml;
            }
#ifdef DW_SCALAR_BORN
            const char *tag = " born";
#else
            const char *tag = grad_mode ? " grad" : "";
#endif
            printf("ready %.0f grid %d^%d%s\n", cells, ns, DW_NDIM, tag);
        } else {
            printf("seconds %.9f cpu %.9f\n", sec, cpu);
        }
        fflush(stdout);
    }
    return 0;
}
