import * as Comlink from 'comlink';
import type { TrainerApi } from './protocol';
import { TrainerService } from './service';

const api: TrainerApi = new TrainerService();
Comlink.expose(api);
