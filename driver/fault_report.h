/* Device-lost reports: what the chip says about a fault (ppu_fault_format)
 * plus what only the driver knows — which queue the channel is, which
 * command buffer or driver-generated segment the faulting GPFIFO entry came
 * from, which part of the VA layout the address falls in, and for a shader
 * fault which shader the PC is in (program_names.h). */
#ifndef DRV_FAULT_REPORT_H
#define DRV_FAULT_REPORT_H

struct drv_device;
struct ppu_channel;

/* Called from the interrupt handler (a model thread) on PPU_INTR_FAULT:
 * marks the device lost and keeps the first fault's report. Nothing is
 * printed here: the API layer takes the report (drv_device_take_fault_report)
 * on the first application call that observes the loss, and sends it to the
 * application's debug messengers and stderr from that thread. */
void drv_fault_record(struct drv_device *dev, struct ppu_channel *hw);

#endif
