import type { FastifyInstance } from 'fastify';
import type { Layout } from '../../core/http/pages.js';
import type { Library } from '../context.js';

export function registerExportPages(_app: FastifyInstance, _layout: Layout, _lib: Library): void {}
