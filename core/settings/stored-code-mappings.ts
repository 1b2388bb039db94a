/**
 * The shape of the mapping memory as the settings document stores it (settings.ts; read and written through
 * code-mappings.ts): per profile, plant codes → service ids and material codes → category and service id.
 */
import { z } from 'zod';
import { MATERIAL_CATEGORIES } from '../spec/constants.js';

const UUID_SHAPE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const MappingCode = z
  .string()
  .trim()
  .min(1, 'a code must not be empty')
  .max(255, 'a code has at most 255 characters');

export const ServiceId = z
  .string()
  .trim()
  .regex(UUID_SHAPE, 'must be a service id (UUID like 123e4567-e89b-12d3-a456-426614174000)')
  .transform((s) => s.toLowerCase());

export const MaterialMapping = z
  .object({
    category: z.enum(MATERIAL_CATEGORIES, { message: 'category must be elementary or composite' }),
    id: ServiceId,
  })
  .strict();
export type MaterialMapping = z.infer<typeof MaterialMapping>;

export const StoredMappings = z
  .object({
    plants: z.record(MappingCode, ServiceId),
    materials: z.record(MappingCode, MaterialMapping),
  })
  .strict();
export type StoredMappings = z.infer<typeof StoredMappings>;
